import { describe, expect, it } from 'vitest';
import { KIND_SPECS } from '../../src/sync/objects/index.ts';
import { runCli } from '../support/cli.ts';
import { useTestRedis } from '../support/redis.ts';
import { useSyncWorld, worldEnv } from '../support/sync-world.ts';

const world = useSyncWorld();
const redis = useTestRedis();

const cli = (...args: string[]) =>
  runCli(args, {
    ...worldEnv(world, redis),
  });

const json = <T>(stdout: string): T => JSON.parse(stdout.trim().split('\n').at(-1)!) as T;

async function erpPostings(): Promise<number> {
  const [row] = await world.db
    .sql`select count(*)::int as n from ${world.db.sql(world.ledgerSchema)}.postings`;
  return row!.n as number;
}

describe('CLI verbs through the real binary', () => {
  it('connection show names the active connection', async () => {
    const result = await cli('connection', 'show', '--json');
    expect(result.code, result.stderr).toBe(0);
    expect(json<{ active: { id: string } }>(result.stdout).active.id).toBe(world.connectionId);
  });

  it('sync --dry-run says what would happen and writes nothing anywhere', async () => {
    await world.seed({
      seed: 41,
      transactions: 120,
      reimbursements: 10,
      transfers: 5,
      cashbacks: 5,
      bills: 20,
    });
    const before = await erpPostings();
    const result = await cli('sync', 'transactions', '--dry-run', '--json');
    expect(result.code, result.stderr).toBe(0);
    const [dry] = json<{ read: number; wouldPost: number; wouldFail: number }[]>(result.stdout);
    expect(dry!.read).toBeGreaterThan(0);
    expect(dry!.wouldPost + dry!.wouldFail).toBe(dry!.read);
    expect(await erpPostings()).toBe(before);
    const [ledger] = await world.db.sql`select count(*)::int as n from sync_ledger`;
    expect(ledger!.n).toBe(0);
  });

  it('sync all mirrors the chart, syncs every kind, and exits 3 when some objects were reported failed', async () => {
    const result = await cli('sync', 'all', '--json');
    expect([0, 3], result.stderr).toContain(result.code);
    const summaries = json<{ kind?: string; posted?: number; failed?: number }[]>(result.stdout);
    expect(summaries).toHaveLength(6);
    expect(result.code).toBe(summaries.some((s) => (s.failed ?? 0) > 0) ? 3 : 0);
    expect(await erpPostings()).toBeGreaterThan(0);
  });

  it('status reports what was synced and why things failed; no worker runs, so it exits 3 (PROBLEM)', async () => {
    const result = await cli('status', '--json');
    expect(result.code, result.stderr).toBe(3);
    const report = json<{
      health: { state: string };
      kinds: {
        kind: string;
        synced: number;
        topReasons: { message: string }[];
        lastRun: { startedAt: string; outcome: string } | null;
      }[];
    }>(result.stdout);
    const transactions = report.kinds.find((k) => k.kind === 'transactions');
    expect(transactions?.synced).toBeGreaterThan(0);
    // ISO 8601 times; a run with failures is not called a success.
    expect(transactions?.lastRun?.startedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(transactions?.lastRun?.outcome).toMatch(
      /^(succeeded|completed with \d+ failed|failed: all \d+ objects failed)$/,
    );
    expect(report.health.state).toBe('problem');
    const text = await cli('status');
    expect(text.code).toBe(3);
    expect(text.stdout).toContain('Health: PROBLEM: No worker is running');
    expect(text.stdout).toContain('Top failure reasons');
  });

  it('replay re-syncs one failed object after its coding is fixed', async () => {
    const [failed] = await world.db.sql`
      select object_id from sync_ledger where sync_type = 'TRANSACTION_SYNC' and outcome = 'failure'
        and error_message like '%has no GL account%' limit 1`;
    expect(failed, 'the seeded world has an uncoded transaction').toBeTruthy();
    const [account] = await world.db
      .sql`select id from ${world.db.sql(world.ledgerSchema)}.accounts where classification = 'EXPENSE' and active limit 1`;
    // The bookkeeper picks a GL account; the other codings (the vendor) stay as they are.
    const current = await world.platform.objects.one(KIND_SPECS.transactions.list, failed!.object_id);
    const gl = {
      id: 'sel-gl',
      external_id: account!.id,
      name: 'Expense',
      type: 'GL_ACCOUNT',
      category_info: { id: 'cat-gl', external_id: 'Category', name: 'Category', type: 'GL_ACCOUNT' },
    };
    await world.control('PATCH', `/__stub/objects/transaction/${failed!.object_id}`, {
      accounting_field_selections: [
        ...current.accounting_field_selections.filter((s) => s.type !== 'GL_ACCOUNT'),
        gl,
      ],
      line_items: [],
    });
    const result = await cli('replay', failed!.object_id);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain('synced');
    const [row] = await world.db
      .sql`select platform_status from sync_ledger where object_id = ${failed!.object_id}`;
    expect(row?.platform_status).toBe('SYNCED');
    const again = await cli('replay', failed!.object_id);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('not ready');
    expect(again.stdout, 'an object that did not sync is an error, on stderr').toBe('');
  });

  it('replay of an unknown id says so on stderr, naming the kinds that cannot be replayed (exit 1)', async () => {
    const result = await cli('replay', 'no-such-object');
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('ledgersync: no-such-object: not found.');
    expect(result.stderr).toContain('Transfers and cashbacks cannot be replayed');
  });

  it('G20: replay of a synced transfer or cashback says it cannot be replayed and why (exit 2)', async () => {
    for (const syncType of ['TRANSFER_SYNC', 'STATEMENT_CREDIT_SYNC']) {
      const [row] = await world.db
        .sql`select object_id from sync_ledger where sync_type = ${syncType} limit 1`;
      expect(row, syncType).toBeTruthy();
      const result = await cli('replay', row!.object_id);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain('cannot be replayed');
      expect(result.stderr).toContain('no single read for transfers or cashbacks');
    }
  });

  it('reconcile and erp trial-balance run; the books balance', async () => {
    expect([0, 3]).toContain((await cli('reconcile', '--json')).code);
    const balance = await cli('erp', 'trial-balance', '--json');
    expect(balance.code, balance.stderr).toBe(0);
    expect(
      Object.values(json<{ totals: Record<string, number> }>(balance.stdout).totals).every((t) => t === 0),
    ).toBe(true);
  });

  it('bad arguments: a clear message and exit 2', async () => {
    // Eight processes that stop at their arguments: started together, as none touches the world.
    const slices = ['abc', '0', '2.5', '99'];
    const [unknownKind, noProvider, badSetting, noId, ...badSlices] = await Promise.all([
      cli('sync', 'invoices'),
      cli('connection', 'create'),
      cli('connection', 'settings', '--set', 'nonsense=yes'),
      cli('replay'),
      ...slices.map((value) => cli('sync', 'transactions', '--slices', value)),
    ]);
    expect(unknownKind!.code).toBe(2);
    expect(unknownKind!.stderr).toContain('choose one of: coa, transactions');
    expect(noProvider!.code).toBe(2);
    expect(noProvider!.stderr).toContain("required option '--provider <name>'");
    expect(badSetting!.code).toBe(2);
    expect(noId!.code).toBe(2);
    badSlices.forEach((badSlice, i) => {
      expect(badSlice.code, slices[i]).toBe(2);
      expect(badSlice.stderr).toContain('must be a whole number from 1 to 32');
    });
  }, 120_000);

  it('--json prints exactly one JSON document on stdout; logs go to stderr', async () => {
    const verbose = (...args: string[]) =>
      runCli(args, {
        ...worldEnv(world, redis),
        LOG_LEVEL: 'debug',
      });
    for (const args of [
      ['status', '--json'],
      ['sync', 'all', '--json'],
    ]) {
      const result = await verbose(...args);
      expect([0, 3], result.stderr).toContain(result.code);
      expect(() => JSON.parse(result.stdout), args.join(' ')).not.toThrow();
      expect(result.stdout.trim().split('\n')).toHaveLength(1);
      expect(result.stderr.length, 'the log lines are on stderr').toBeGreaterThan(0);
    }
  });
});
