import type { Job } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { followConnectionSwitch } from '../../../../jobs/connection-migration.ts';
import { resolveConnection } from '../../../../src/app/index.ts';
import { silentLogger } from '../../../../src/log.ts';
import { withAdvisoryLock } from '../../../../src/sync/advisory-lock.ts';
import {
  ConnectionSwitchPendingError,
  followSwitch,
} from '../../../../src/sync/connection-migration/index.ts';
import { mirrorLockName } from '../../../../src/sync/mirror/index.ts';
import type { SyncPlatform } from '../../../../src/sync/objects/index.ts';
import { objectSyncLockName, syncObjects } from '../../../../src/sync/objects/index.ts';
import { chartDifferences, type StubChart } from '../mirror/support/compare.ts';
import { transactionSeed, useMigrationWorld, writesOf } from './support/world.ts';

const m = useMigrationWorld();

/** A prepared migration the customer has just switched to: the source and the new connection. */
async function preparedAndSwitched(
  options: { objects?: Record<string, unknown> } = {},
): Promise<{ source: string; target: string }> {
  const source = await m.fresh();
  if (options.objects) await m.world.seed(options.objects);
  const prepared = await m.prepare(options.objects ? { force: true, skipSync: true } : {});
  expect(prepared.outcome, JSON.stringify(prepared.blocker)).toBe('ready');
  const target = prepared.targetConnectionId!;
  return { source, target };
}

async function switchTo(target: string): Promise<void> {
  await m.world.control('POST', `/__stub/connections/${target}/switch`);
}

/** GET /__stub/chart: the items, and the connection as the platform shows it now. */
const chartOf = async (id: string) => (await m.chart(id)) as StubChart & { connection: unknown };

const deps = () => ({ sql: m.world.db.sql, platform: m.platform, log: silentLogger });

/** The platform through which results never arrive: ERP writes happen, reports stay in the outbox. */
function unreachableResults(platform: SyncPlatform): SyncPlatform {
  return {
    ...platform,
    postSyncs: async () => {
      throw new Error('the platform is unreachable');
    },
  };
}

describe('following the switch the customer makes in the platform (docs/platform.md G31, last row)', () => {
  it('the first run after the switch records it, uses the preload as the id maps, and leaves the old connection as it was', async () => {
    const { source, target } = await preparedAndSwitched();
    const { connection: _before, ...oldChart } = await chartOf(source);
    await switchTo(target);

    const first = await followSwitch(deps(), source);
    expect(first).toMatchObject({ kind: 'recorded', connectionId: target, left: source, idMap: 'preloaded' });
    expect(await followSwitch(deps(), source)).toEqual({
      kind: 'followed',
      connectionId: target,
      left: source,
    });
    expect(await followSwitch(deps(), target)).toEqual({ kind: 'unchanged', connectionId: target });

    const [migration] = await m.world.db.sql`select state from connection_migrations`;
    expect(migration?.state).toBe('switched');
    const connections = await m.world.db.sql<{ id: string; is_active: boolean; role: string }[]>`
      select id, is_active, role from connections where is_active`;
    expect(connections).toEqual([{ id: target, is_active: true, role: 'primary' }]);
    // The id maps carried over: the new connection's chart mirror has nothing to write.
    const mark = await m.arrivalMark();
    const mirrored = await m.mirror(target);
    expect(mirrored.writeCalls).toBe(0);
    expect(writesOf(await m.arrivalsSince(mark))).toEqual([]);
    // The platform marks it inactive and unlinked; its chart is as it was.
    const { connection, ...chartAfter } = await chartOf(source);
    expect(chartAfter).toEqual(oldChart);
    expect(connection).toMatchObject({ is_active: false, status: 'unlinked' });
  });

  it('work of the connection left that was not reported yet is carried over and reported from the new one: nothing posted or marked twice, nothing lost', async () => {
    const { source, target } = await preparedAndSwitched({ objects: transactionSeed(71, 40) });
    const ready = await m.world.control<{ totals: { marks: number } }>('GET', '/__stub/effects?include=');
    // A run of the old connection writes the objects to the ERP, but its results never reach the
    // platform: they wait in the outbox, frozen.
    await syncObjects(
      {
        sql: m.world.db.sql,
        erp: m.world.erp,
        platform: unreachableResults(m.world.syncPlatform),
        connectionId: source,
        log: silentLogger,
      },
      'transactions',
    ).catch(() => undefined);
    const waiting = await m.world.db.sql<{ n: number }[]>`
      select count(*)::int as n from sync_ledger where connection_id = ${source} and state <> 'REPORTED'`;
    expect(waiting[0]!.n).toBeGreaterThan(0);
    await switchTo(target);

    const recorded = await followSwitch(deps(), source);
    expect(recorded).toMatchObject({ kind: 'recorded', connectionId: target });
    if (recorded.kind !== 'recorded') return;
    expect(recorded.carried.ledgerRows).toBe(waiting[0]!.n);
    expect(recorded.carried.batches).toBeGreaterThan(0);

    const summary = await syncObjects(
      {
        sql: m.world.db.sql,
        erp: m.world.erp,
        platform: m.world.syncPlatform,
        connectionId: target,
        log: silentLogger,
      },
      'transactions',
    );
    expect(summary.busy).toBe(false);
    const left = await m.world.db.sql`
      select connection_id, state, count(*)::int as n from sync_ledger where state <> 'REPORTED'
      group by connection_id, state`;
    expect(left).toEqual([]);
    const effects = await m.world.control<{
      marks: Array<{ object_id: string; result: string }>;
      summary: { synced_more_than_once: unknown[] };
    }>('GET', `/__stub/effects?include=marks&summary=true&marks_since=${ready.totals.marks}&limit=100000`);
    expect(effects.summary.synced_more_than_once).toEqual([]);
    const marked = new Set(effects.marks.filter((x) => x.result === 'SYNCED').map((x) => x.object_id));
    const rows = await m.world.db.sql<{ object_id: string; connection_id: string }[]>`
      select object_id, connection_id from sync_ledger where outcome = 'success'`;
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.connection_id).toBe(target);
      expect(marked.has(row.object_id)).toBe(true);
    }
    const postings = await m.world.db.sql<{ n: number }[]>`
      select count(*)::int as n from ${m.world.db.sql(m.world.ledgerSchema)}.postings
       where object_id = any(${rows.map((r) => r.object_id)}::text[])`;
    expect(postings[0]!.n).toBe(rows.length);
  });

  it('while a run of the connection left holds its lock, the switch waits: jobs retry, commands carry on with the old connection; then it is recorded', async () => {
    const { source, target } = await preparedAndSwitched();
    await switchTo(target);
    const job = {
      id: 'j1',
      data: { connectionId: source, kind: 'bills', trigger: 'cron' },
    } as unknown as Job;
    await withAdvisoryLock(m.world.db.sql, objectSyncLockName(source, 'bills'), async () => {
      expect(await followSwitch(deps(), source)).toMatchObject({
        kind: 'pending',
        connectionId: source,
        target,
      });
      await expect(followConnectionSwitch(job, deps(), { patienceMs: 300 })).rejects.toBeInstanceOf(
        ConnectionSwitchPendingError,
      );
      expect(await resolveConnection(m.platform, m.world.db.sql)).toBe(source);
    });
    await withAdvisoryLock(m.world.db.sql, mirrorLockName(source), async () => {
      expect((await followSwitch(deps(), target)).kind).toBe('pending');
    });
    const routed = await followConnectionSwitch(job, deps());
    expect(routed.data).toEqual({ connectionId: target, kind: 'bills', trigger: 'cron' });
    expect(await resolveConnection(m.platform, m.world.db.sql, source)).toBe(target);
    expect(await resolveConnection(m.platform, m.world.db.sql)).toBe(target);
  });

  it('a sync-button press recorded under the connection left is answered for the new one: its job and its request move there', async () => {
    const { source, target } = await preparedAndSwitched();
    await switchTo(target);
    const deadline = new Date(Date.now() + 5 * 60_000).toISOString();
    await m.world.db.sql`
      insert into sync_requests (sync_request_id, connection_id, object_type, requested_at, deadline)
      values ('press-1', ${source}, 'TRANSACTION', now(), ${deadline})`;
    const data = { connectionId: source, objectType: 'TRANSACTION', syncRequestId: 'press-1', deadline };
    const routed = await followConnectionSwitch({ id: 'b1', data } as unknown as Job, deps());
    expect(routed.data).toEqual({ ...data, connectionId: target });
    const [request] = await m.world.db
      .sql`select connection_id from sync_requests where sync_request_id = 'press-1'`;
    expect(request?.connection_id).toBe(target);
  });

  it('a new connection whose id maps are not here (prepared elsewhere) gets them rebuilt from the platform: its chart mirror then writes nothing', async () => {
    const { source, target } = await preparedAndSwitched();
    const [before] = await m.world.db.sql<{ n: number }[]>`
      select count(*)::int as n from id_map where connection_id = ${target}`;
    await m.world.db.sql`delete from id_map where connection_id = ${target}`;
    await switchTo(target);

    const recorded = await followSwitch(deps(), source);
    expect(recorded.kind).toBe('recorded');
    if (recorded.kind !== 'recorded') return;
    expect(typeof recorded.idMap === 'object' && recorded.idMap.rebuilt.gl_account).toBeGreaterThan(0);
    const [after] = await m.world.db.sql<{ n: number }[]>`
      select count(*)::int as n from id_map where connection_id = ${target}`;
    expect(after!.n).toBe(before!.n);
    const mirrored = await m.mirror(target);
    expect(mirrored.writeCalls).toBe(0);
    expect(await chartDifferences(await m.chart(target), m.world.erp)).toEqual([]);
  });

  it('the locks held while recording a switch are the very ones object syncs and chart mirrors take', async () => {
    const source = await m.fresh();
    await withAdvisoryLock(m.world.db.sql, objectSyncLockName(source, 'transfers'), async () => {
      const summary = await syncObjects(
        {
          sql: m.world.db.sql,
          erp: m.world.erp,
          platform: m.world.syncPlatform,
          connectionId: source,
          log: silentLogger,
        },
        'transfers',
      );
      expect(summary.busy).toBe(true);
    });
    await withAdvisoryLock(m.world.db.sql, mirrorLockName(source), async () => {
      const mirrored = await m.mirror(source);
      expect(mirrored.busy).toBe(true);
    });
  });
});
