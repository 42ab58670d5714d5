import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliResult, runCli } from '../support/cli.ts';
import { startErpServe } from '../support/erp-serve.ts';
import { useTestRedis } from '../support/redis.ts';
import { useSyncWorld, worldEnv } from '../support/sync-world.ts';
import { startCursorIgnoringProxy } from '../support/wrong-erps.ts';

/**
 * Cursors that do not move, through the real binary (src/page-guard.ts, docs/platform.md F43): a
 * platform list whose page.next is the URL just asked, or that points onward over empty pages
 * without end, and an HTTP ERP service that ignores its chart cursor. Each ends the list it
 * concerns with one line naming the kind and the cause, in a bounded number of requests (counted
 * at the stub or the ERP service, never timed); the other kinds run to their end.
 */
const world = useSyncWorld();
const redis = useTestRedis();
const TOKEN = 'e2e-paging-token-0123456789';

const env = () => worldEnv(world, redis);
const lastJson = <T>(stdout: string): T => JSON.parse(stdout.trim().split('\n').at(-1)!) as T;

interface Arrival {
  method: string;
  route: string;
}

/** Runs the command; answers its result and the platform requests it made, counted at the stub. */
async function counted(run: () => Promise<CliResult>): Promise<{ result: CliResult; arrivals: Arrival[] }> {
  type Effects = { totals: { arrivals: number }; arrivals: Arrival[] };
  const since = (await world.control<Effects>('GET', '/__stub/effects?include=none')).totals.arrivals;
  const result = await run();
  const { arrivals } = await world.control<Effects>(
    'GET',
    `/__stub/effects?include=arrivals&arrivals_since=${since}&limit=1000000`,
  );
  return { result, arrivals };
}

const reads = (arrivals: Arrival[], route: string) =>
  arrivals.filter((a) => a.method === 'GET' && a.route === route).length;

/** The lines of `ledgersync: these kinds stopped early …` naming each kind and its cause. */
const stoppedLines = (stderr: string) => stderr.split('\n').filter((l) => /^ {2}\w+: /.test(l));

type KindLine = { kind?: string; read?: number; stopped?: boolean; reason?: string };

beforeAll(async () => {
  await world.seed({
    seed: 55,
    transactions: 180,
    reimbursements: 30,
    transfers: 10,
    cashbacks: 10,
    bills: 250,
  });
});

describe('a platform list whose cursor does not move (docs/platform.md F43)', () => {
  it('F43: a bills page.next that is the URL just asked stops bills alone after one request; the other kinds run, exit 4', async () => {
    await world.control('PUT', '/__stub/faults', { page_links: { '/bills': 'self' } });
    try {
      const { result, arrivals } = await counted(() => runCli(['sync', 'all', '--json'], env()));
      expect(result.code, result.stderr).toBe(4);
      expect(stoppedLines(result.stderr)).toEqual([
        expect.stringMatching(
          /^ {2}bills: GET \/bills: the link onward from page 1 was already followed: the cursor does not move; the rest of the list could not be read \(F43\) \(trace [\w-]+\)$/,
        ),
      ]);
      const lines = lastJson<KindLine[]>(result.stdout);
      expect(lines.find((l) => l.kind === 'bills')?.stopped).toBe(true);
      for (const kind of ['transactions', 'reimbursements', 'transfers', 'cashbacks'])
        expect(lines.find((l) => l.kind === kind)?.read, kind).toBeGreaterThan(0);
      // One page of bills read, its self-link never followed.
      expect(reads(arrivals, '/bills')).toBe(1);
    } finally {
      await world.control('PUT', '/__stub/faults', {});
    }
  });

  it('F43: transactions read by the date-split reader, every page a self-link: transactions stop, exit 4, in few requests', async () => {
    await world.control('PUT', '/__stub/faults', { page_links: { '/transactions': 'self' } });
    try {
      const { result, arrivals } = await counted(() => runCli(['sync', 'transactions'], env()));
      expect(result.code, result.stderr).toBe(4);
      expect(stoppedLines(result.stderr)).toEqual([
        expect.stringMatching(
          /^ {2}transactions: GET \/transactions: .*: the cursor does not move; the rest of the list could not be read \(F43\) \(trace [\w-]+\)$/,
        ),
      ]);
      // Every cursor the reader opens (the first page, its probes, its ranges) ends at its first page.
      // Measured: 2 (the first page and a probe beside it); 40+ identical ones before the guard.
      expect(reads(arrivals, '/transactions')).toBeLessThanOrEqual(10);
    } finally {
      await world.control('PUT', '/__stub/faults', {});
    }
  });

  it('F43: bills that point onward over empty pages without end stop at the 100th empty page, after every bill was read', async () => {
    await world.seed({ seed: 56, transactions: 0, bills: 250 });
    await world.control('PUT', '/__stub/faults', { page_links: { '/bills': 'empty_onward' } });
    try {
      const { result, arrivals } = await counted(() => runCli(['sync', 'bills', '--json'], env()));
      expect(result.code, result.stderr).toBe(4);
      expect(stoppedLines(result.stderr)).toEqual([
        expect.stringMatching(
          /^ {2}bills: GET \/bills: 100 empty pages in a row still point onward \(page \d+\); .*\(F43\) \(trace [\w-]+\)$/,
        ),
      ]);
      // Every ready bill was read and posted before the stop; then the empty run, up to its bound.
      const [bills] = lastJson<{ done?: { read: number } }[]>(result.stdout);
      expect(reads(arrivals, '/bills')).toBe(Math.ceil(bills!.done!.read / 100) + 100);
    } finally {
      await world.control('PUT', '/__stub/faults', {});
    }
  });

  it("F43: status with a self-link on reconcile's read still reports (exit 3: no worker), the cause in its warning", async () => {
    await world.control('PUT', '/__stub/faults', { page_links: { '/transactions': 'self' } });
    try {
      const { result, arrivals } = await counted(() => runCli(['status', '--json'], env()));
      expect(result.code, result.stderr).toBe(3);
      expect(lastJson<{ health: { state: string } }>(result.stdout).health.state).toBe('problem');
      expect(result.stderr).toMatch(/could not be read from the platform/);
      expect(result.stderr).toMatch(/GET \/transactions: the link onward from page 1 was already followed/);
      expect(result.stderr).not.toMatch(/"stack"/);
      expect(reads(arrivals, '/transactions')).toBe(1);
    } finally {
      await world.control('PUT', '/__stub/faults', {});
    }
  });

  it('F43: sync coa whose 7020 adoption read of GET /accounting/accounts is a self-link stops coa, exit 4', async () => {
    const first = await runCli(['sync', 'coa'], env());
    expect([0, 3], first.stderr).toContain(first.code);
    // As after a crash between "uploaded" and "recorded": the next upload meets 7020 and reads the
    // platform's accounts to adopt them (docs/platform.md F12).
    await world.db.sql`delete from id_map where kind = 'gl_account'`;
    await world.control('PUT', '/__stub/faults', { page_links: { '/accounting/accounts': 'self' } });
    try {
      const { result, arrivals } = await counted(() => runCli(['sync', 'coa'], env()));
      expect(result.code, result.stderr).toBe(4);
      expect(stoppedLines(result.stderr)).toEqual([
        expect.stringMatching(
          /^ {2}coa: GET \/accounting\/accounts: the link onward from page 1 was already followed: the cursor does not move; the rest of the list could not be read \(F43\) \(trace [\w-]+\)$/,
        ),
      ]);
      expect(reads(arrivals, '/accounting/accounts')).toBe(1);
    } finally {
      await world.control('PUT', '/__stub/faults', {});
    }
  });
});

describe('an HTTP ERP service that ignores its chart cursor', () => {
  let service: ChildProcess | undefined;
  let proxy: Awaited<ReturnType<typeof startCursorIgnoringProxy>> | undefined;

  beforeAll(async () => {
    const started = await startErpServe({ ...env(), ERP: 'ledger', ERP_HTTP_TOKEN: TOKEN });
    service = started.child;
    proxy = await startCursorIgnoringProxy(started.url);
  });

  afterAll(async () => {
    await proxy?.close();
    service?.kill('SIGTERM');
  });

  it('F43: sync coa with ERP=http stops coa at the second page of GL accounts, exit 4, one line naming route and item type', async () => {
    const result = await runCli(['sync', 'coa'], {
      ...env(),
      ERP: 'http',
      ERP_HTTP_URL: proxy!.url,
      ERP_HTTP_TOKEN: TOKEN,
    });
    expect(result.code, result.stderr).toBe(4);
    expect(stoppedLines(result.stderr)).toEqual([
      expect.stringMatching(
        /^ {2}coa: The ERP service’s chart stream does not end: GET \/chart\/gl-accounts \(GL accounts\): page 2 repeats an earlier page: the cursor does not move \(ERP-[0-9A-F]{12}\)$/,
      ),
    ]);
    expect(proxy!.chartCalls()).toBe(2);
  });
});
