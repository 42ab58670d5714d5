import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createErp, postOne, seedLedger } from '../../src/erp/index.ts';
import { type ContractFixture, ERP_RULES, objects } from '../../src/erp/kit/index.ts';
import { runCli } from '../support/cli.ts';
import { useTestDatabase } from '../support/db.ts';
import { startErpServe } from '../support/erp-serve.ts';
import { useTestRedis } from '../support/redis.ts';
import { startCursorIgnoringProxy } from '../support/wrong-erps.ts';

const db = useTestDatabase({ migrate: false });
const redis = useTestRedis();
const ledgerSchema = db.newSchema('ledger_kit');
const TOKEN = 'e2e-check-token-0123456789';
const dir = mkdtempSync(join(tmpdir(), 'erp-check-'));
const fixturePath = join(dir, 'fixture.json');

/** The environment of the documented flow: `LEDGER_SCHEMA=ledger_kit ledgersync erp …`. */
const ledgerEnv = () => ({
  DATABASE_URL: db.url,
  DATABASE_SCHEMA: db.schema,
  LEDGER_SCHEMA: ledgerSchema,
  REDIS_URL: redis.url,
  QUEUE_PREFIX: redis.prefix,
  ERP: 'ledger',
});
/** `erp check` needs no database: only the service, its fixture and its token. */
const checkEnv = { ERP_HTTP_TOKEN: undefined, ERP_HTTP_HMAC_SECRET: undefined };

let service: ChildProcess | undefined;
let serviceUrl = '';
let proxy: Server | undefined;

beforeAll(async () => {
  const books = await runCli(['erp', 'kit-books'], ledgerEnv());
  expect(books.code, books.stderr).toBe(0);
  writeFileSync(fixturePath, books.stdout);
  const started = await startErpServe({ ...ledgerEnv(), ERP_HTTP_TOKEN: TOKEN });
  service = started.child;
  serviceUrl = started.url;
}, 120_000);

afterAll(async () => {
  service?.kill('SIGTERM');
  await new Promise((resolve) => (proxy ? proxy.close(resolve) : resolve(undefined)));
  rmSync(dir, { recursive: true, force: true });
});

/**
 * A wrong service: the reference service behind a proxy that forgets idempotency for card
 * transactions. Each POST /entries reaches the ledger with every card under a fresh object id
 * (so a retry posts twice), and the answer is mapped back to the ids that were sent.
 */
async function startForgetfulProxy(target: string): Promise<string> {
  let n = 0;
  proxy = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      let body = Buffer.concat(chunks).toString('utf8');
      const sentIds = new Map<string, string>();
      if (req.method === 'POST' && req.url === '/entries') {
        const parsed = JSON.parse(body) as { items: { kind: string; objectId: string }[] };
        for (const item of parsed.items)
          if (item.kind === 'card_transaction') {
            const fresh = `${item.objectId}-again-${++n}`;
            sentIds.set(fresh, item.objectId);
            item.objectId = fresh;
          }
        body = JSON.stringify(parsed);
      }
      const answer = await fetch(`${target}${req.url}`, {
        method: req.method,
        headers: {
          authorization: req.headers.authorization ?? '',
          'content-type': 'application/json',
        },
        ...(req.method === 'POST' ? { body } : {}),
      });
      let text = await answer.text();
      if (sentIds.size > 0 && answer.ok) {
        const parsed = JSON.parse(text) as { results: { objectId: string }[] };
        for (const r of parsed.results) r.objectId = sentIds.get(r.objectId) ?? r.objectId;
        text = JSON.stringify(parsed);
      }
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(text);
    });
  });
  await new Promise<void>((resolve) => proxy!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
}

const ruleLines = (stdout: string) => stdout.split('\n').filter((l) => /^(held|BROKEN) /.test(l));

describe('ledgersync erp check (the conformance kit against an HTTP ERP service, real binary)', () => {
  it('kit-books + erp serve + erp check: every rule held, exit 0; the token is never printed', async () => {
    const result = await runCli(
      ['erp', 'check', '--url', serviceUrl, '--fixture', fixturePath],
      { ...checkEnv, ERP_HTTP_TOKEN: TOKEN },
      180_000,
    );
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const lines = ruleLines(result.stdout);
    expect(lines.map((l) => l.split(/\s+/)[1])).toEqual(ERP_RULES.map((r) => r.id));
    expect(lines.every((l) => l.startsWith('held '))).toBe(true);
    expect(result.stdout).toContain(`All ${ERP_RULES.length} rules held`);
    expect(result.stdout + result.stderr).not.toContain(TOKEN);
  }, 200_000);

  it('--json prints one document naming every rule; kit-books on its own books again changes nothing', async () => {
    const result = await runCli(
      ['erp', 'check', '--url', serviceUrl, '--fixture', fixturePath, '--token', TOKEN, '--json'],
      checkEnv,
      180_000,
    );
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const doc = JSON.parse(result.stdout) as {
      held: number;
      broken: number;
      rules: { id: string; held: boolean }[];
    };
    expect(doc).toMatchObject({ held: ERP_RULES.length, broken: 0 });
    expect(doc.rules.map((r) => r.id)).toEqual(ERP_RULES.map((r) => r.id));
    expect(result.stdout).not.toContain(TOKEN);

    // The books now hold the kit's postings; they are still kit books, so a rerun is allowed.
    const again = await runCli(['erp', 'kit-books'], ledgerEnv());
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual(JSON.parse(readFileSync(fixturePath, 'utf8')));
  }, 200_000);

  it("kit-books refuses books in use (postings that are not the kit's) and changes nothing there", async () => {
    const used = db.newSchema('ledger_used');
    await seedLedger(db.sql, used, { preset: 'small', seed: 3 });
    const fixture = JSON.parse(readFileSync(fixturePath, 'utf8')) as ContractFixture;
    const posted = await postOne(
      createErp({ kind: 'ledger', sql: db.sql, schema: used }),
      objects(fixture).card(),
    );
    expect(posted.ok, JSON.stringify(posted)).toBe(true);
    const result = await runCli(['erp', 'kit-books'], { ...ledgerEnv(), LEDGER_SCHEMA: used });
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`the ledger in LEDGER_SCHEMA=${used} holds postings`);
    const [kit] =
      await db.sql`select count(*)::int as n from ${db.sql(used)}.vendors where id = 'ven-defunct'`;
    expect(kit!.n).toBe(0);
  }, 120_000);

  it('a service that writes a retried card twice: exit 3, idempotency.sequential-retry BROKEN with its reason', async () => {
    const wrongUrl = await startForgetfulProxy(serviceUrl);
    const result = await runCli(
      ['erp', 'check', '--url', wrongUrl, '--fixture', fixturePath, '--token', TOKEN],
      checkEnv,
      180_000,
    );
    expect(result.code, result.stdout + result.stderr).toBe(3);
    const broken = ruleLines(result.stdout).filter((l) => l.startsWith('BROKEN '));
    const retry = broken.find((l) => l.split(/\s+/)[1] === 'idempotency.sequential-retry');
    expect(retry).toMatch(/not the first write's/);
    // What does not touch a card's idempotency still holds.
    expect(ruleLines(result.stdout)).toContainEqual(expect.stringMatching(/^held\s+chart\.gl-accounts\s/));
    expect(result.stdout).toMatch(/rules broken at 127\.0\.0\.1:\d+: .*idempotency\.sequential-retry/);
  }, 200_000);

  it('F43: a service that ignores the chart cursor: chart.paging BROKEN naming the route, exit 3, in bounded calls', async () => {
    const wrong = await startCursorIgnoringProxy(serviceUrl);
    try {
      const result = await runCli(
        ['erp', 'check', '--url', wrong.url, '--fixture', fixturePath, '--token', TOKEN],
        checkEnv,
        180_000,
      );
      expect(result.code, result.stdout + result.stderr).toBe(3);
      const lines = ruleLines(result.stdout);
      // Every rule got its verdict: the check ran to the end rather than hang on page 1.
      expect(lines.map((l) => l.split(/\s+/)[1])).toEqual(ERP_RULES.map((r) => r.id));
      expect(lines.find((l) => l.split(/\s+/)[1] === 'chart.paging')).toMatch(
        /^BROKEN\s+chart\.paging\s+ErpPagingError: .*chart stream does not end\. GET \/chart\/gl-accounts \(GL accounts\): page 2 repeats an earlier page: the cursor does not move/,
      );
      // Writes do not page: what does not read the chart still holds.
      expect(lines).toContainEqual(expect.stringMatching(/^held\s+idempotency\.sequential-retry\s/));
      // Each chart stream read ends at its second page: six reads, twelve calls (23,791 page calls
      // and a heap out of memory before the guard).
      expect(wrong.chartCalls()).toBeLessThanOrEqual(20);
      expect(result.stdout).toMatch(/rules broken at 127\.0\.0\.1:\d+: chart\.paging, /);
    } finally {
      await wrong.close();
    }
  }, 200_000);

  it('nothing listening: exit 69 at once, one line naming the host', async () => {
    // A port that was just free: connections to it are refused.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const result = await runCli(
      ['erp', 'check', '--url', `http://127.0.0.1:${port}`, '--fixture', fixturePath],
      checkEnv,
      30_000,
    );
    expect(result.code, result.stderr).toBe(69);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `ledgersync: the ERP service at 127.0.0.1:${port} does not answer (GET /health: network error ECONNREFUSED); start it or check --url.\n`,
    );
  });

  it('a bad fixture file: exit 78, one line naming each bad field', async () => {
    const bad = join(dir, 'bad.json');
    const fixture = JSON.parse(readFileSync(fixturePath, 'utf8'));
    delete fixture.inactiveVendor;
    writeFileSync(bad, JSON.stringify({ ...fixture, openDate: '10/02/2025', colour: 'blue' }));
    const result = await runCli(['erp', 'check', '--url', serviceUrl, '--fixture', bad], checkEnv, 30_000);
    expect(result.code, result.stderr).toBe(78);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')).toHaveLength(2);
    expect(result.stderr).toMatch(/^ledgersync: fixture .*bad\.json: /);
    for (const problem of [
      'openDate: Invalid ISO date',
      'inactiveVendor: missing',
      'colour: not a fixture field',
    ])
      expect(result.stderr).toContain(problem);
  });
});
