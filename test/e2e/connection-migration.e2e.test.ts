import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KIND_SPECS } from '../../src/sync/objects/index.ts';
import { chartDifferences } from '../integration/sync/mirror/support/compare.ts';
import { startWorkerProcess, type WorkerProcess } from '../integration/worker-process.ts';
import { runCli } from '../support/cli.ts';
import { checkHistory } from '../support/history-check.ts';
import { useTestRedis } from '../support/redis.ts';
import { useSyncWorld, worldEnv } from '../support/sync-world.ts';

/**
 * Connection migration end to end (docs/platform.md G30, G31): the real binary
 * (CLI and `ledgersync worker`) against the stub over HTTP and the built-in ledger. A backlog is
 * waiting; `migrate prepare --queue` hands the migration to the worker; the worker is killed in
 * the middle, twice, and each time the next one resumes it; the customer switches in the
 * platform; the worker notices and syncs into the new connection, with nothing synced twice,
 * nothing lost, and the old connection left as it was.
 */

const world = useSyncWorld();
const redis = useTestRedis();
const PROVIDER = 'New ERP (API)';
let backupDir = '';
const running: WorkerProcess[] = [];

beforeAll(async () => {
  backupDir = await mkdtemp(join(tmpdir(), 'ls-e2e-migration-'));
});
afterAll(async () => {
  await Promise.all(running.map((w) => w.stop('SIGKILL')));
  if (backupDir) await rm(backupDir, { recursive: true, force: true });
});

/** Every three seconds a scheduled sync of each kind, every five the chart mirror. */
const FAST_SCHEDULES = {
  SCHEDULE_OBJECT_SYNC_WEEKDAYS: '*/3 * * * * *',
  SCHEDULE_OBJECT_SYNC_WEEKENDS: '*/3 * * * * *',
  SCHEDULE_COA_MIRROR: '*/5 * * * * *',
};

const env = (extra: Record<string, string> = {}) => ({
  ...worldEnv(world, redis),
  RATE_LIMIT_MAX: '100000',
  ...extra,
});
const cli = (...args: string[]) => runCli(args, env(), 120_000);

async function worker(args: string[], extra: Record<string, string> = {}): Promise<WorkerProcess> {
  const process = startWorkerProcess(args, env(extra));
  running.push(process);
  await process.waitForLine(/ledgersync worker running/);
  return process;
}

interface Arrival {
  method: string;
  route: string;
}
async function arrivalMark(): Promise<number> {
  const body = await world.control<{ next: { arrivals_since: number } }>(
    'GET',
    `/__stub/effects?include=arrivals&arrivals_since=${Number.MAX_SAFE_INTEGER}&limit=1`,
  );
  return body.next.arrivals_since;
}
async function arrivalsSince(mark: number): Promise<Arrival[]> {
  const body = await world.control<{ arrivals: Arrival[] }>(
    'GET',
    `/__stub/effects?include=arrivals&arrivals_since=${mark}&limit=100000`,
  );
  return body.arrivals;
}

/** Polls until `probe` holds; on timeout the error carries `explain()` (a worker's output). */
async function until<T>(
  probe: () => Promise<T | null | false>,
  what: string,
  options: { timeoutMs?: number; explain?: () => string } = {},
): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 90_000);
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) {
      const state = await migrationState();
      const detail = options.explain ? `\n${options.explain().slice(-4000)}` : '';
      throw new Error(`timed out waiting for ${what} (migration: ${state})${detail}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function migrationState(): Promise<string | null> {
  const [row] = await world.db.sql<
    { state: string }[]
  >`select state from connection_migrations order by id desc limit 1`;
  return row?.state ?? null;
}

/** Ids marked SYNCED on the platform (every sync type), from the stub's record of marks. */
async function syncedIds(): Promise<Set<string>> {
  const effects = await world.control<{ marks: Array<{ object_id: string; result: string }> }>(
    'GET',
    '/__stub/effects?include=marks&limit=1000000',
  );
  return new Set(effects.marks.filter((x) => x.result === 'SYNCED').map((x) => x.object_id));
}

async function readyIds(): Promise<Set<string>> {
  const ids = new Set<string>();
  const o = world.platform.objects;
  for (const listing of [
    o.ready(KIND_SPECS.transactions.list),
    o.ready(KIND_SPECS.reimbursements.list),
    o.ready(KIND_SPECS.transfers.list),
    o.ready(KIND_SPECS.cashbacks.list),
    o.ready(KIND_SPECS.bills.list),
  ]) {
    for await (const item of listing) if (item.ok) ids.add(item.value.id);
  }
  return ids;
}

async function addReady(kind: 'transactions' | 'bills', count: number): Promise<string[]> {
  const { ids } = await world.control<{ ids: string[] }>('POST', `/__stub/objects/${kind}`, { count });
  return ids;
}

/** GET /__stub/chart of a connection, without the connection's own flags (the switch changes those). */
async function chartItems(connectionId: string) {
  const { connection: _flags, ...items } = await world.control<Record<string, unknown>>(
    'GET',
    `/__stub/chart?accounting_connection_id=${connectionId}`,
  );
  return items;
}

describe('connection migration through the real binary (docs/platform.md G30, G31)', () => {
  it('backlog, prepare on the queue, kill -9 twice, resume, switch, sync into the new connection; the old one untouched', async () => {
    // A backlog on the current connection, its chart mirrored, coded against the ledger's chart.
    await world.seed({
      seed: 2601,
      transactions: 1200,
      reimbursements: 30,
      transfers: 10,
      cashbacks: 10,
      bills: 60,
      // Vendors 7, 8 and 9 of every ten start unlinked (their bills need a person): none of those.
      vendors: 7,
      // A fresh ledger holds none of the bills the platform shows synced already: no payments of those.
      bill_mix: {
        not_synced_open: 0.5,
        not_synced_paid: 0.5,
        bill_synced_paid: 0,
        bill_synced_open: 0,
        all_synced: 0,
      },
      ready_fraction: 1,
      sync_disabled_fraction: 0,
      uncoded_fraction: 0,
      unknown_coding_fraction: 0,
      vendor_creation_fraction: 0,
    });
    const source = world.connectionId;
    const mirrored = await cli('sync', 'coa');
    expect(mirrored.code, mirrored.stderr).toBe(0);
    const backlog = await readyIds();
    expect(backlog.size).toBeGreaterThan(1000);

    // 1. The worker takes `migrate prepare` from the queue; killed in the middle of the backlog.
    const first = await worker(['--no-schedules', '--no-server']);
    const mark = await arrivalMark();
    const queued = await cli(
      'migrate',
      'prepare',
      '--queue',
      '--provider',
      PROVIDER,
      '--backup-dir',
      backupDir,
      '--json',
    );
    expect(queued.code, queued.stderr).toBe(0);
    const { jobId } = JSON.parse(queued.stdout) as { jobId: string; already: boolean };
    await until(
      async () =>
        (await arrivalsSince(mark)).filter((a) => a.method === 'GET' && a.route === '/transactions').length >=
        4,
      'the prepare job to be reading the backlog',
      { explain: first.output },
    );
    await first.stop('SIGKILL');
    expect(await migrationState()).toBe('started');
    const halfSynced = await syncedIds();
    expect([...backlog].filter((id) => !halfSynced.has(id)).length).toBeGreaterThan(0);

    // 2. The next worker resumes it; killed as soon as it has asked for the new connection.
    const second = await worker(['--no-schedules', '--no-server']);
    const mark2 = await arrivalMark();
    await until(
      async () =>
        (await arrivalsSince(mark2)).some((a) => a.method === 'POST' && a.route === '/accounting/connection'),
      'the resumed job to create the new connection',
      { explain: second.output },
    );
    await second.stop('SIGKILL');
    const stoppedAt = await migrationState();
    expect(['backed_up', 'target_created', 'preloaded']).toContain(stoppedAt);
    const midway = await cli('status', '--json');
    // The killed worker's job may count as stalled: a PROBLEM banner exits 3 (README "Exit codes").
    const midwayState = JSON.parse(midway.stdout).health.state;
    expect(midway.code, midway.stderr).toBe(midwayState === 'problem' ? 3 : 0);
    const midwayMigration = JSON.parse(midway.stdout).migration;
    expect(midwayMigration).toMatchObject({ id: '1', phase: 'in_progress', state: stoppedAt, total: 6 });
    expect(midwayMigration.done).toBeLessThan(6);
    expect(midwayMigration.job).toMatchObject({ id: jobId });
    const text = await cli('status');
    expect(text.stdout).toMatch(
      new RegExp(`Migration #1 to "New ERP \\(API\\)": ${stoppedAt}, \\d of 6 steps done`),
    );

    // 3. A worker with its schedules resumes it to ready, syncing the connection being left meanwhile.
    const third = await worker(['--no-server'], FAST_SCHEDULES);
    await until(async () => (await migrationState()) === 'ready', 'the migration to be ready', {
      timeoutMs: 120_000,
      explain: third.output,
    });
    const ready = await cli('status', '--json');
    expect(JSON.parse(ready.stdout).migration).toMatchObject({ phase: 'ready', done: 6, lastError: null });
    const target = (JSON.parse(ready.stdout).migration as { targetConnectionId: string }).targetConnectionId;
    const all = (await world.platform.connection.all()).flatMap((c) => (c.ok ? [c.value] : []));
    expect(all.filter((c) => c.remote_provider_name === PROVIDER).map((c) => c.id)).toEqual([target]);
    expect(await chartDifferences((await chartItems(target)) as never, world.erp)).toEqual([]);
    const synced = await syncedIds();
    expect([...backlog].filter((id) => !synced.has(id))).toEqual([]);

    // 4. Until the customer switches, the current connection keeps syncing.
    const beforeSwitch = await addReady('transactions', 40);
    await until(
      async () => {
        const now = await syncedIds();
        return beforeSwitch.every((id) => now.has(id));
      },
      'the objects made ready before the switch to be synced',
      { explain: third.output },
    );

    // 5. The customer switches in the platform; new objects become ready.
    const oldChart = await chartItems(source);
    await world.control('POST', `/__stub/connections/${target}/switch`);
    const afterSwitch = [...(await addReady('transactions', 40)), ...(await addReady('bills', 8))];
    await until(
      async () => {
        const now = await syncedIds();
        return afterSwitch.every((id) => now.has(id));
      },
      'the objects made ready after the switch to be synced',
      { explain: third.output },
    );
    // A few more scheduled rounds (syncs and the chart mirror), all for the new connection.
    const settled = await arrivalMark();
    await until(
      async () =>
        (await arrivalsSince(settled)).filter((a) => a.method === 'GET' && a.route === '/transactions')
          .length >= 3,
      'more scheduled syncs',
    );
    expect(await third.stop('SIGTERM')).toBe(0);

    // The switch is recorded; the next runs went to the new connection, and only there.
    expect(await migrationState()).toBe('switched');
    const rows = await world.db.sql<{ object_id: string; connection_id: string }[]>`
      select object_id, connection_id from sync_ledger where outcome = 'success'`;
    const byObject = new Map<string, Set<string>>();
    for (const row of rows)
      byObject.set(row.object_id, (byObject.get(row.object_id) ?? new Set()).add(row.connection_id));
    for (const id of afterSwitch) expect([...(byObject.get(id) ?? [])], id).toEqual([target]);
    for (const id of beforeSwitch) expect([...(byObject.get(id) ?? [])], id).toEqual([source]);
    // The old connection's chart is exactly as it was when the customer left it.
    expect(await chartItems(source)).toEqual(oldChart);
    expect(await chartDifferences((await chartItems(target)) as never, world.erp)).toEqual([]);
    // Nothing lost, nothing marked twice, every ERP posting marked and every mark posted.
    const history = await checkHistory({
      control: world.control,
      sql: world.db.sql,
      ledgerSchema: world.ledgerSchema,
      readyAtStart: [...backlog, ...beforeSwitch, ...afterSwitch],
    });
    expect(history).toEqual({ lost: [], duplicated: [], unreported: [], phantom: [], keyConflicts: 0 });
    expect(await readyIds()).toEqual(new Set());

    const status = await cli('status', '--json');
    const report = JSON.parse(status.stdout) as { connectionId: string; migration: { phase: string } };
    expect(report.connectionId).toBe(target);
    expect(report.migration.phase).toBe('switched');
    const migrate = await cli('migrate', 'status', '--json');
    expect(JSON.parse(migrate.stdout)).toMatchObject({
      readiness: 'switched',
      target: { id: target, is_active: true },
    });
  }, 300_000);
});
