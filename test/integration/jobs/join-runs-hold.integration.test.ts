import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { type RunningJoiner, startJoining } from '../../../jobs/join-runs.ts';
import { silentLogger } from '../../../src/log.ts';
import { type ObjectSyncSummary, syncObjects } from '../../../src/sync/objects/index.ts';
import { CLEAN_HISTORY, checkHistory } from '../../support/history-check.ts';
import { useSyncWorld } from '../../support/sync-world.ts';
import { seedTransactionBacklog } from '../../support/transaction-backlog.ts';

/** Where a joiner looks for runs in these tests (the product looks every 2 s). */
const LOOK_EVERY_MS = 50;

/**
 * jobs/join-runs.ts: a worker process joins bulk syncs other processes started, and a
 * sync-button press holds it (jobs/worker.ts): while held it joins nothing, and a share it is
 * reading stops between pages and gives its ranges back, so the press has the process's CPU and
 * nothing of the bulk sync is lost.
 */
function holdWorld() {
  const world = useSyncWorld({ stub: { latencyMs: 10 } });
  const deps = () => ({
    sql: world.db.sql,
    erp: world.erp,
    platform: world.syncPlatform,
    connectionId: world.connectionId,
    log: silentLogger,
  });

  const seedBacklog = (count: number, seed: number) => seedTransactionBacklog(world, { count, seed });

  /**
   * Starts a bulk sync here and, once it has planned its ranges, names another host as its
   * starter: a joiner never joins a run of its own process, so this stands for a second worker.
   */
  async function startForeignRun(): Promise<{ runId: string; done: Promise<ObjectSyncSummary> }> {
    const done = syncObjects(deps(), 'transactions', { slices: 2 });
    for (let i = 0; i < 400; i++) {
      const [run] = await world.db.sql<{ run_id: string }[]>`
        update read_runs set starter = 'another-host:1:000000'
         where state = 'reading' and page_order is not null returning run_id`;
      if (run) return { runId: run.run_id, done };
      await sleep(25);
    }
    throw new Error('no run was planned');
  }

  /** Ranges of the run being read by someone other than its starter's reader (range 0's). */
  async function rangesReadByJoiners(runId: string): Promise<number> {
    const [row] = await world.db.sql<{ n: number }[]>`
      select count(*)::int as n from read_ranges
       where run_id = ${runId} and state = 'reading'
         and reader <> (select reader from read_ranges where run_id = ${runId} and id = 0)`;
    return row?.n ?? 0;
  }

  const history = (readyAtStart: Set<string>) =>
    checkHistory({
      control: world.control,
      sql: world.db.sql,
      ledgerSchema: world.ledgerSchema,
      readyAtStart,
    });

  return { world, deps, seedBacklog, startForeignRun, rangesReadByJoiners, history };
}

describe('a held joiner joins no run', () => {
  const { world, seedBacklog, startForeignRun, rangesReadByJoiners, history } = holdWorld();

  it("while a press holds it, the joiner leaves another process's run alone", async () => {
    const readyAtStart = await seedBacklog(3000, 51);
    const shares: ObjectSyncSummary[] = [];
    let joinedAtAnyLook = 0;
    const joiner: RunningJoiner = startJoining(
      { sql: world.db.sql, erp: world.erp, syncPlatform: world.syncPlatform, log: silentLogger },
      { everyMs: LOOK_EVERY_MS, onJoined: (summary) => shares.push(summary) },
    );
    const release = joiner.hold();
    try {
      const { runId, done } = await startForeignRun();
      let finished = false;
      void done.finally(() => {
        finished = true;
      });
      while (!finished) {
        joinedAtAnyLook = Math.max(joinedAtAnyLook, await rangesReadByJoiners(runId));
        await sleep(LOOK_EVERY_MS);
      }
      const started = await done;
      expect(joinedAtAnyLook).toBe(0);
      expect(shares).toEqual([]);
      expect(started.read).toBe(readyAtStart.size);
    } finally {
      release();
      await joiner.stop();
    }
    expect(await history(readyAtStart)).toEqual(CLEAN_HISTORY);
  }, 120_000);
});

describe('a press holding a joiner that is reading', () => {
  const { world, seedBacklog, startForeignRun, rangesReadByJoiners, history } = holdWorld();

  it('the share stops between pages, its ranges go back, and every object is still posted and reported once', async () => {
    const readyAtStart = await seedBacklog(6000, 52);
    const joiner = startJoining(
      { sql: world.db.sql, erp: world.erp, syncPlatform: world.syncPlatform, log: silentLogger },
      { everyMs: LOOK_EVERY_MS },
    );
    try {
      const { runId, done } = await startForeignRun();
      for (let i = 0; i < 2000 && (await rangesReadByJoiners(runId)) === 0; i++) await sleep(10);
      expect(await rangesReadByJoiners(runId)).toBeGreaterThan(0);
      const held = await world.db.sql<{ id: number }[]>`
        select id from read_ranges where run_id = ${runId} and state = 'reading'
           and reader <> (select reader from read_ranges where run_id = ${runId} and id = 0)`;
      const release = joiner.hold();
      await done;
      release();
      // Given back: the starter read the ranges the joiner held when the press came, to their end.
      const readers = await world.db.sql<{ id: number; state: string; starter_read: boolean }[]>`
        select id, state, reader = (select reader from read_ranges where run_id = ${runId} and id = 0) as starter_read
          from read_ranges where run_id = ${runId} and id in ${world.db.sql(held.map((r) => r.id))}`;
      expect(readers.length).toBe(held.length);
      for (const range of readers) expect(range).toMatchObject({ state: 'done', starter_read: true });
    } finally {
      await joiner.stop();
    }
    expect(await history(readyAtStart)).toEqual(CLEAN_HISTORY);
  }, 120_000);
});
