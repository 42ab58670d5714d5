import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recoverLostPresses, startPressRecovery } from '../../../../jobs/recover-presses.ts';
import { syncButtonJobId, watchdogJobId } from '../../../../src/queue/index.ts';
import { SYNC_TOO_LONG } from '../../../../src/sync/sync-button/answer-unfinished.ts';
import { recordSyncRequest } from '../../../../src/sync/sync-button/requests.ts';
import { capturedLog } from '../../../support/captured-log.ts';
import { useTestRedis } from '../../../support/redis.ts';
import { useSyncWorld } from '../../../support/sync-world.ts';
import { waitFor } from '../../support.ts';
import { type ButtonRig, startButtonRig, stubMarks } from './button-rig.ts';

/**
 * docs/platform.md G28 and G29 with a Redis that lost its data: a press is committed to
 * sync_requests before its webhook is answered, and its run and watchdog jobs live in Redis
 * only. Here the press comes through the stub's webhook with the workers held, its jobs are
 * deleted from Redis (as a Redis restarted without persistence would have lost them), and the
 * recovery (jobs/recover-presses.ts) must put the press back so every requested row is answered
 * before the platform's 5-minute window closes. The rig's own periodic check is kept out of the
 * way (once an hour); each test runs the check itself, so what it did is the test's to see.
 */
const world = useSyncWorld({ settings: { transaction_sync_button_enabled: true } });
const redis = useTestRedis();
const { log, lines } = capturedLog();
let rig: ButtonRig;

beforeAll(async () => {
  rig = await startButtonRig(world, redis, { erp: world.erp, log, recoverPressesEveryMs: 3_600_000 });
  await world.seed({
    seed: 57,
    transactions: 200,
    reimbursements: 0,
    bills: 0,
    transfers: 0,
    cashbacks: 0,
    ready_fraction: 1,
    synced_fraction: 0,
    vendor_creation_fraction: 0,
  });
});

afterAll(async () => {
  await release();
  await rig?.close();
});

/**
 * The workers take no sync-button job until release(): a press's jobs stay in Redis as enqueued.
 * The hold is the queues' own pause, kept in Redis, so a lost queue is held again after it.
 */
async function hold(): Promise<void> {
  await Promise.all([rig.queues.syncButton.pause(), rig.queues.syncWatchdog.pause()]);
}

async function release(): Promise<void> {
  if (rig) await Promise.all([rig.queues.syncButton.resume(), rig.queues.syncWatchdog.resume()]);
}

/** A press through the stub: its webhook is recorded and both of its jobs are in Redis. */
async function press(limit: number): Promise<{ id: string; objectIds: string[] }> {
  const pressed = await world.control<{ sync_request_id: string; object_ids: string[] }>(
    'POST',
    '/__stub/sync-button',
    { object_type: 'TRANSACTION', limit },
  );
  const id = pressed.sync_request_id;
  await waitFor(async () => (await jobStates(id)).watchdog !== 'unknown', {
    what: 'the press to be recorded and enqueued',
  });
  return { id, objectIds: pressed.object_ids };
}

async function jobStates(id: string): Promise<{ run: string; watchdog: string }> {
  return {
    run: await rig.queues.syncButton.getJobState(syncButtonJobId(id)),
    watchdog: await rig.queues.syncWatchdog.getJobState(watchdogJobId(id)),
  };
}

/** What a Redis restarted without persistence leaves of the two sync-button queues: nothing. */
async function loseButtonQueues(): Promise<void> {
  const admin = redis.connect();
  for (const queue of ['sync-button', 'sync-watchdog']) {
    let cursor = '0';
    do {
      const [next, keys] = await admin.scan(cursor, 'MATCH', `${redis.prefix}:${queue}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await admin.del(...keys);
    } while (cursor !== '0');
  }
  await hold();
}

async function stateOf(id: string): Promise<{ state: string; watchdog_failed: number } | undefined> {
  const [row] = await world.db.sql<{ state: string; watchdog_failed: number }[]>`
    select state, watchdog_failed from sync_requests where sync_request_id = ${id}`;
  return row;
}

async function answered(id: string) {
  return waitFor(
    async () => {
      const row = await stateOf(id);
      return row?.state === 'ANSWERED' ? row : null;
    },
    { what: 'the press to be answered', timeoutMs: 30_000 },
  );
}

/**
 * Every requested row of the press has a result posted with its sync_request_id, and the stub's
 * window, crossed now, expires none of them (the press was answered before its deadline).
 */
async function expectAnsweredInWindow(p: { id: string; objectIds: string[] }): Promise<void> {
  const marks = (await stubMarks(world)).filter((m) => m.sync_request_id === p.id && m.result !== 'REJECTED');
  expect(new Set(marks.map((m) => m.object_id))).toEqual(new Set(p.objectIds));
  const clock = await world.control<{ expired_rows: number }>('POST', '/__stub/clock', {
    advance_ms: 301_000,
  });
  expect(clock.expired_rows).toBe(0);
  const request = await world.control<{ open: boolean; expired_rows: number }>(
    'GET',
    `/__stub/sync-requests/${p.id}`,
  );
  expect(request).toMatchObject({ open: false, expired_rows: 0 });
}

const lostLines = (id: string) => lines.filter((l) => l.includes('lost its queued jobs') && l.includes(id));

describe('sync-button presses whose jobs Redis lost', () => {
  it('docs/platform.md G29: a press whose run and watchdog Redis lost is enqueued again by the periodic check and answered before its deadline', async () => {
    await hold();
    const p = await press(40);
    await loseButtonQueues();
    expect(await jobStates(p.id)).toEqual({ run: 'unknown', watchdog: 'unknown' });
    expect((await stateOf(p.id))?.state).toBe('OPEN');

    const recovery = startPressRecovery({ sql: world.db.sql, queues: rig.queues, log }, 200);
    try {
      await waitFor(async () => (await jobStates(p.id)).watchdog !== 'unknown', {
        what: 'the periodic check to enqueue the press again',
      });
    } finally {
      await recovery.stop();
    }
    expect(await jobStates(p.id)).toEqual({ run: 'waiting', watchdog: 'delayed' });
    expect(lostLines(p.id)).toHaveLength(1);
    expect(JSON.parse(lostLines(p.id)[0]!)).toMatchObject({ level: 40, lost: ['run', 'watchdog'] });

    await release();
    expect((await answered(p.id)).watchdog_failed).toBe(0);
    await expectAnsweredInWindow(p);
  });

  it('a press whose jobs are in Redis is not enqueued again; one that lost only its watchdog gets that back', async () => {
    await hold();
    const p = await press(30);
    const run = await rig.queues.syncButton.getJob(syncButtonJobId(p.id));
    const watchdog = await rig.queues.syncWatchdog.getJob(watchdogJobId(p.id));
    const counts = async () => ({
      run: await rig.queues.syncButton.getJobCounts('waiting', 'active'),
      watchdog: await rig.queues.syncWatchdog.getJobCounts('delayed', 'waiting'),
    });
    const before = await counts();

    expect(await recoverLostPresses({ sql: world.db.sql, queues: rig.queues, log })).toMatchObject({
      recovered: 0,
    });
    expect(await counts()).toEqual(before);
    expect((await rig.queues.syncWatchdog.getJob(watchdogJobId(p.id)))?.timestamp).toBe(watchdog!.timestamp);
    expect(lostLines(p.id)).toEqual([]);

    await watchdog!.remove();
    expect(await recoverLostPresses({ sql: world.db.sql, queues: rig.queues, log })).toMatchObject({
      recovered: 1,
    });
    expect(await jobStates(p.id)).toEqual({ run: 'waiting', watchdog: 'delayed' });
    // The run is the one the webhook enqueued, not a second one.
    expect((await rig.queues.syncButton.getJob(syncButtonJobId(p.id)))?.timestamp).toBe(run!.timestamp);
    expect(await counts()).toEqual(before);
    expect(JSON.parse(lostLines(p.id)[0]!)).toMatchObject({ lost: ['watchdog'], run: 'in the queue' });

    await release();
    await answered(p.id);
    // The run completed: Redis keeps it, so a later check finds nothing lost.
    await waitFor(async () => (await jobStates(p.id)).run === 'completed', { what: 'the run to complete' });
    expect(await recoverLostPresses({ sql: world.db.sql, queues: rig.queues, log })).toMatchObject({
      recovered: 0,
    });
    await expectAnsweredInWindow(p);
  });

  it('docs/platform.md G29: with too little time left for a run, only the watchdog is enqueued, and it answers every row at once', async () => {
    await hold();
    const p = await press(25);
    await loseButtonQueues();
    // A watchdog lead of 299 s leaves a press made a moment ago no room for a run before it.
    const result = await recoverLostPresses({
      sql: world.db.sql,
      queues: rig.queues,
      log,
      watchdogLeadMs: 299_000,
    });
    expect(result).toMatchObject({ recovered: 1 });
    expect(await jobStates(p.id)).toEqual({ run: 'unknown', watchdog: 'waiting' });
    expect(JSON.parse(lostLines(p.id)[0]!)).toMatchObject({ run: 'too little time left', watchdogInMs: 0 });

    await release();
    expect((await answered(p.id)).watchdog_failed).toBe(25);
    const failures = (await stubMarks(world)).filter((m) => m.sync_request_id === p.id);
    expect(failures.every((m) => m.result === 'FAILED')).toBe(true);
    const sample = await world.control<{ state: { failures: { message: string }[] } }>(
      'GET',
      `/__stub/objects/transaction/${p.objectIds[0]}`,
    );
    expect(sample.state.failures.at(-1)?.message).toBe(SYNC_TOO_LONG.message);
    await expectAnsweredInWindow(p);
  });

  it('docs/platform.md G29: a press past its deadline that nothing answered is closed as EXPIRED with a warning, not left open', async () => {
    // Deadlines set by the database's clock: the recovery compares with it, not with this process's.
    const [db] = await world.db.sql<{ now: Date }[]>`select now() as now`;
    const dbNow = db!.now.getTime();
    const overdue = `lost-overdue-${dbNow}`;
    const justPast = `lost-just-past-${dbNow}`;
    for (const [id, deadline] of [
      [overdue, dbNow - 120_000],
      [justPast, dbNow - 5_000],
    ] as const) {
      await recordSyncRequest(world.db.sql, {
        syncRequestId: id,
        connectionId: world.connectionId,
        objectType: 'TRANSACTION',
        requestedAt: new Date(deadline - 300_000),
        deadline: new Date(deadline),
      });
    }

    const result = await recoverLostPresses({ sql: world.db.sql, queues: rig.queues, log });
    expect(result.expired).toBe(1);
    expect((await stateOf(overdue))?.state).toBe('EXPIRED');
    const warning = lines.find((l) => l.includes(overdue));
    expect(JSON.parse(warning!)).toMatchObject({ level: 40, objectType: 'TRANSACTION' });
    expect(warning).toMatch(/closed as EXPIRED: nothing answered it within its 5-minute window/);
    // Within a minute of its deadline a watchdog may still be recording its answer: left be, and
    // nothing is enqueued for a press whose window has closed.
    expect((await stateOf(justPast))?.state).toBe('OPEN');
    expect(await jobStates(justPast)).toEqual({ run: 'unknown', watchdog: 'unknown' });
    // A second worker's check finds nothing more to close.
    expect((await recoverLostPresses({ sql: world.db.sql, queues: rig.queues, log })).expired).toBe(0);
  });
});
