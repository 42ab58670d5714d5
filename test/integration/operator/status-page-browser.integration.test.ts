import { mkdir, readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/log.ts';
import { type RunningServer, type ServerDeps, startServer } from '../../../src/server/server.ts';
import { CHROMIUM_PACKAGE, ensureChromium, headless } from '../../support/chromium.ts';
import { HOSTILE_OBJECT, OPERATOR_TOKEN, useOperatorWorld } from './support.ts';

/**
 * The status page in a real browser (headless Chromium from Debian's `chromium` package), served
 * by the worker's server on loopback with OPERATOR_TOKEN set, after an end-to-end sync: the
 * browser signs in through /login (cookie, redirect), then the page must show the failures a
 * bookkeeper must fix, with their messages as text. The screenshot goes to test-output/.
 */
const ops = useOperatorWorld({ host: '127.0.0.1', token: OPERATOR_TOKEN });
const SCREENSHOT = resolve('test-output/status-page.png');
let chromium: string;
let open: RunningServer | undefined;

beforeAll(async () => {
  // Installs the package when missing (CI: apt-get install -y --no-install-recommends chromium);
  // when that is impossible the error says why and every test here fails.
  chromium = await ensureChromium();
  await ops.syncThroughJobs();
}, 900_000);

afterAll(async () => {
  await open?.close();
});

const loginUrl = () => `${ops.server.url}/login?token=${encodeURIComponent(OPERATOR_TOKEN)}&next=/status`;

describe(`the status page in headless Chromium (apt package "${CHROMIUM_PACKAGE}")`, () => {
  it('signs in through /login and shows the failures a bookkeeper must fix, messages as text', async () => {
    const dom = await headless(chromium, loginUrl(), { flags: ['--dump-dom'] });
    expect(dom).toContain('<title>ledgersync status</title>');
    expect(dom).toContain(ops.world.connectionId);
    const needs = /Needs a bookkeeper <span class="attention">\((\d+)\)<\/span>/.exec(dom);
    expect(needs, 'the "Needs a bookkeeper" heading with a count').not.toBeNull();
    expect(Number(needs![1])).toBeGreaterThan(1);
    const rows = dom.slice(
      dom.indexOf('<table id="failures">'),
      dom.indexOf('</table>', dom.indexOf('id="failures"')),
    );
    const messages = [...rows.matchAll(/<td class="message">([^<]*)<\/td>/g)].map((m) => m[1]!);
    expect(messages.length).toBeGreaterThan(1);
    for (const message of messages) expect(message).toMatch(/^Action needed: /);
    expect(messages.some((m) => /has no GL account/.test(m))).toBe(true);
    // The hostile message is the newest: shown as text, its markup never became elements.
    expect(rows).toContain(HOSTILE_OBJECT);
    expect(messages[0]).toBe(
      'Action needed: vendor "&lt;img src=x onerror=alert(1)&gt;" &amp; &lt;script&gt;document.title=\'pwned\'&lt;/script&gt; is unknown.',
    );
    expect(dom).not.toMatch(/<img\b/);
    expect(dom).not.toMatch(/<script\b/);
    for (const kind of ['transactions', 'reimbursements', 'transfers', 'cashbacks', 'bills']) {
      expect(dom).toContain(`<td>${kind}</td>`);
    }
    expect(dom).toMatch(/1 answered, 0 open, 0 expired; latency p50 \d+ ms/);
  }, 90_000);

  it('renders a screenshot of the page to test-output/status-page.png', async () => {
    await mkdir(resolve('test-output'), { recursive: true });
    await headless(chromium, loginUrl(), {
      flags: [`--screenshot=${SCREENSHOT}`, '--window-size=1280,1600', '--hide-scrollbars'],
    });
    const png = await readFile(SCREENSHOT);
    expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    expect((await stat(SCREENSHOT)).size).toBeGreaterThan(10_000);
    console.log(`status page screenshot: ${SCREENSHOT}`);
  }, 90_000);

  it('without the token the browser gets the sign-in form, not the report', async () => {
    const dom = await headless(chromium, `${ops.server.url}/status`, { flags: ['--dump-dom'] });
    expect(dom).toContain('This page needs the operator token');
    expect(dom).not.toContain(HOSTILE_OBJECT);
  }, 90_000);
});

describe('loopback without OPERATOR_TOKEN', () => {
  it('the operator pages are open; beyond loopback such a server refuses to start', async () => {
    const deps: ServerDeps = {
      sql: ops.world.db.sql,
      redis: { ping: async () => 'PONG' as const },
      queues: ops.queues,
      connectionId: ops.world.connectionId,
      log: silentLogger,
      secrets: async () => [],
      operator: { metrics: ops.metrics },
    };
    open = await startServer(deps, { host: '127.0.0.1', port: 0 });
    for (const path of ['/status', '/status.json', '/metrics', '/admin/queues']) {
      expect((await fetch(`${open.url}${path}`)).status, path).toBe(200);
    }
    await expect(startServer(deps, { host: '0.0.0.0', port: 0 })).rejects.toThrow(
      /OPERATOR_TOKEN is required/,
    );
  });
});
