import { describe, expect, it } from 'vitest';
import { trialBalance, trialBalanceTotals } from '../../src/erp/index.ts';
import { silentLogger } from '../../src/log.ts';
import { runSyncButton } from '../../src/sync/sync-button/index.ts';
import { runCli } from '../support/cli.ts';
import { useTestRedis } from '../support/redis.ts';
import { useSyncWorld, worldEnv } from '../support/sync-world.ts';

/**
 * The whole product against a stub that answers sync posts as the published platform does:
 * `201 {sync_id}` with no per-item results (docs/platform.md F33). Every kind still syncs, each
 * object is marked once, the books balance, and a second run changes nothing.
 */
const world = useSyncWorld({
  stub: { config: { publishedAnswers: true } },
  settings: { transaction_sync_button_enabled: true },
});
const redis = useTestRedis();

const cli = (...args: string[]) =>
  runCli(args, {
    ...worldEnv(world, redis),
  });

const lastJson = <T>(stdout: string): T => JSON.parse(stdout.trim().split('\n').at(-1)!) as T;

interface Mark {
  object_id: string;
  sync_type: string;
  result: string;
  sync_request_id: string | null;
}
interface Effects {
  marks: Mark[];
  summary: { synced_more_than_once: unknown[] };
}

const effects = () =>
  world.control<Effects>('GET', '/__stub/effects?include=marks&summary=true&limit=100000');

describe('published answers: sync posts answered 201 {sync_id} only (docs/platform.md F33)', () => {
  it('F33: the stub answers a sync post with {sync_id} alone in this mode', async () => {
    const answer = await world.platform.syncs.postResults({
      idempotency_key: 'published-mode-probe',
      sync_type: 'TRANSFER_SYNC',
      failed_syncs: [{ id: 'no-such-object', error: { message: 'probe' } }],
    });
    expect(answer.answer).toMatchObject({ itemResults: false, results: [] });
    expect(answer.answer?.sync_id).toBeTruthy();
  });

  it('F33: sync coa, then sync all: every ready object is reported once, the books balance', async () => {
    const seeded = (await world.seed({
      seed: 33,
      transactions: 300,
      reimbursements: 40,
      transfers: 15,
      cashbacks: 15,
      bills: 80,
    })) as { ready: Record<string, number> };
    const coa = await cli('sync', 'coa', '--json');
    expect(coa.code, coa.stderr).toBe(0);

    const all = await cli('sync', 'all', '--json');
    expect([0, 3], all.stderr).toContain(all.code);
    const summaries = lastJson<{ kind?: string; read?: number }[]>(all.stdout);
    const readyAtStart = Object.values(seeded.ready).reduce((a, b) => a + b, 0);
    expect(summaries.reduce((n, s) => n + (s.read ?? 0), 0)).toBe(readyAtStart);

    // Every claimed row was acknowledged without per-item results, is REPORTED, and is taken as
    // applied as sent (F33).
    const rows = await world.db.sql<
      { state: string; outcome: string; platform_status: string | null; object_id: string }[]
    >`select state, outcome, platform_status, object_id from sync_ledger`;
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.state, row.object_id).toBe('REPORTED');
      expect(row.platform_status, row.object_id).toBe(row.outcome === 'success' ? 'SYNCED' : 'FAILED');
    }
    const [unacked] = await world.db.sql<{ n: number }[]>`
      select count(*)::int as n from result_batches where state <> 'ACKED'`;
    expect(unacked!.n).toBe(0);

    // Each (object, sync type) marked exactly once on the platform: nothing resent, nothing lost.
    const { marks, summary } = await effects();
    expect(summary.synced_more_than_once).toEqual([]);
    const keys = marks
      .filter((m) => m.object_id !== 'no-such-object')
      .map((m) => `${m.sync_type}:${m.object_id}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.length).toBe(rows.length);

    const totals = trialBalanceTotals(await trialBalance(world.db.sql, world.ledgerSchema));
    for (const [currency, total] of totals) expect(total, currency).toBe(0);
  });

  it('F33: a second sync all writes nothing new to the ERP and marks nothing synced twice', async () => {
    const entries = async () => {
      const [row] = await world.db
        .sql`select count(*)::int as n from ${world.db.sql(world.ledgerSchema)}.journal_entries`;
      return row!.n as number;
    };
    const synced = (marks: Mark[]) =>
      new Set(marks.filter((m) => m.result === 'SYNCED').map((m) => `${m.sync_type}:${m.object_id}`));
    const before = await entries();
    const syncedBefore = synced((await effects()).marks);
    const again = await cli('sync', 'all', '--json');
    expect([0, 3], again.stderr).toContain(again.code);
    const after = await effects();
    // Whatever the second run wrote to the ERP is work the first left (bill payments whose bill it
    // synced): each new entry is a first SYNCED mark, never a second one for the same object.
    const firstMarks = after.marks.filter(
      (m) => m.result === 'SYNCED' && !syncedBefore.has(`${m.sync_type}:${m.object_id}`),
    );
    expect(await entries()).toBe(before + firstMarks.length);
    expect(after.summary.synced_more_than_once).toEqual([]);
    // Failures stay ready on the platform and are tried (and reported) again; successes are not.
    expect(
      after.marks.filter((m) => m.result === 'SYNCED' && syncedBefore.has(`${m.sync_type}:${m.object_id}`))
        .length,
    ).toBe(syncedBefore.size);
  });

  it('F33, sync button: a press is answered with its sync_request_id and acknowledged', async () => {
    await world.seed({
      seed: 34,
      transactions: 60,
      reimbursements: 0,
      transfers: 0,
      cashbacks: 0,
      bills: 0,
      ready_fraction: 1,
      synced_fraction: 0,
    });
    const press = await world.control<{ sync_request_id: string; object_ids: string[] }>(
      'POST',
      '/__stub/sync-button',
      { object_type: 'TRANSACTION', limit: 20 },
    );
    const outcome = await runSyncButton(
      {
        sql: world.db.sql,
        erp: world.erp,
        platform: world.platform,
        syncPlatform: world.syncPlatform,
        log: silentLogger,
      },
      {
        connectionId: world.connectionId,
        objectType: 'TRANSACTION',
        syncRequestId: press.sync_request_id,
        deadline: new Date(Date.now() + 5 * 60_000),
      },
    );
    expect(outcome.outcome).toBe('answered');
    const answered = (await effects()).marks.filter((m) => m.sync_request_id === press.sync_request_id);
    expect(new Set(answered.map((m) => m.object_id))).toEqual(new Set(press.object_ids));
    const [open] = await world.db.sql<{ n: number }[]>`
      select count(*)::int as n from result_batches
      where sync_request_id = ${press.sync_request_id} and state <> 'ACKED'`;
    expect(open!.n).toBe(0);
  });

  it('F29, F33: migrate prepare readies a new inactive connection with every write carrying a body', async () => {
    // --force: the seeded world keeps a few objects the bookkeeper has yet to code.
    const prepared = await cli('migrate', 'prepare', '--provider', 'Next ERP', '--force', '--json');
    expect(prepared.code, prepared.stdout + prepared.stderr).toBe(0);
    const connections = await world.platform.connection.all();
    const target = connections.flatMap((c) => (c.ok ? [c.value] : [])).find((c) => !c.is_active);
    expect(target?.is_ready_to_migrate).toBe(true);
  });
});
