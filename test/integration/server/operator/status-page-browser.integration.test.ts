import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { silentLogger } from '../../../../src/log.ts';
import { type RunningHeartbeat, startHeartbeat } from '../../../../src/operations/index.ts';
import { type RunningServer, type ServerDeps, startServer } from '../../../../src/server/server.ts';
import { CHROMIUM_PACKAGE, ensureChromium, headless } from '../../../support/chromium.ts';
import { HOSTILE_OBJECT, OPERATOR_TOKEN, useOperatorWorld } from './support.ts';

/**
 * The status page in a real browser (headless Chromium from Debian's `chromium` package), served
 * by the worker's server on loopback with OPERATOR_TOKEN set, after an end-to-end sync with a
 * worker's heartbeat in Redis: the browser signs in through /login (cookie, redirect), then the
 * page must open with the health banner, show the failures a bookkeeper must fix with their
 * messages as text, and draw its charts. The screenshot is left in a temporary folder (its path
 * is printed) for a person to look at.
 */
const ops = useOperatorWorld({ host: '127.0.0.1', token: OPERATOR_TOKEN });
let chromium: string;
let open: RunningServer | undefined;
let heartbeat: RunningHeartbeat | undefined;
let beatRedis: Redis | undefined;
let shots: string | undefined;

beforeAll(async () => {
  // Installs the package when missing (CI: apt-get install -y --no-install-recommends chromium);
  // when that is impossible the error says why and every test here fails.
  chromium = await ensureChromium();
  await ops.syncThroughJobs();
  // The worker's parts run in this process: it beats as `ledgersync worker` does.
  beatRedis = new Redis(inject('redisUrl'));
  heartbeat = startHeartbeat(
    beatRedis,
    ops.queues.objectSync.opts.prefix!,
    {
      queues: ['object-sync', 'sync-button'],
      schedules: {
        objectSyncWeekdays: '0 */2 * * 1-5',
        objectSyncWeekends: '0 */12 * * 0,6',
        coaMirror: '30 1 * * *',
        timezone: 'UTC',
      },
      server: true,
    },
    silentLogger,
  );
  shots = await mkdtemp(join(tmpdir(), 'ledgersync-status-page-'));
}, 900_000);

afterAll(async () => {
  await open?.close();
  await heartbeat?.stop();
  await beatRedis?.quit();
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

  it('opens with the health banner (a worker up) and draws the three charts as SVG', async () => {
    const dom = await headless(chromium, loginUrl(), { flags: ['--dump-dom'] });
    const banner =
      /<section id="health" class="banner banner-(\w+)" data-state="(\w+)">([\s\S]*?)<\/section>/.exec(dom);
    expect(banner, 'the health banner').not.toBeNull();
    expect(dom.indexOf('id="health"')).toBeLessThan(dom.indexOf('id="needs-action"'));
    // A worker beats, nothing is stalled; the bookkeeper's failures may make it "needs a look".
    expect(['ok', 'attention']).toContain(banner![2]);
    expect(banner![3]).toContain(`:${process.pid}</code> jobs, schedules, server · heartbeat`);
    const failures = /<svg id="chart-failures"[\s\S]*?<\/svg>/.exec(dom)?.[0] ?? '';
    // One bar per object run (five kinds) plus the sync-button run; some failed objects among them.
    expect(failures.match(/class="bar-(failed|clean)"/g)?.length).toBe(6);
    expect(failures).toContain('class="bar-failed"');
    const latency = /<svg id="chart-button-latency"[\s\S]*?<\/svg>/.exec(dom)?.[0] ?? '';
    expect(latency.match(/<circle /g)).toHaveLength(1);
    const outbox = /<svg id="chart-outbox"[\s\S]*?<\/svg>/.exec(dom)?.[0] ?? '';
    expect(outbox).toMatch(/<path d="M/);
    expect(dom).toMatch(
      /<table id="schedule">[\s\S]*<td>transactions<\/td><td><time datetime="[^"]+">\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ<\/time>/,
    );
    expect(dom).toContain('<table id="queues">');
  }, 90_000);

  it('renders a screenshot of the page: a PNG, not empty', async () => {
    const screenshot = join(shots!, 'status-page.png');
    await headless(chromium, loginUrl(), {
      flags: [`--screenshot=${screenshot}`, '--window-size=1280,2200', '--hide-scrollbars'],
    });
    const png = await readFile(screenshot);
    expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    expect((await stat(screenshot)).size).toBeGreaterThan(10_000);
    console.log(`status page screenshot: ${screenshot} (${png.length} bytes)`);
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
