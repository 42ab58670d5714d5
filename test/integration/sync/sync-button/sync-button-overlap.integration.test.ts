import { type Job, QueueEvents } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErpAdapter, ErpWrite, WriteResult } from '../../../../src/erp/index.ts';
import { transient } from '../../../../src/erp/index.ts';
import { syncButtonJobId, watchdogJobId } from '../../../../src/queue/index.ts';
import { KIND_SPECS } from '../../../../src/sync/objects/index.ts';
import { answerUnfinished, SYNC_TOO_LONG } from '../../../../src/sync/sync-button/answer-unfinished.ts';
import { capturedLog } from '../../../support/captured-log.ts';
import { useTestRedis } from '../../../support/redis.ts';
import { useSyncWorld } from '../../../support/sync-world.ts';
import { type GatedErp, gatedErp, waitFor } from '../../support.ts';
import { type ButtonRig, startButtonRig, stubMarks } from './button-rig.ts';

/**
 * Overlapping presses of the sync button, end to end against the stub as a real server: presses
 * → signed webhooks → receiver → sync-button and watchdog queues → posts to the stub. Several
 * requests of one kind are open at once, so every read of the requested rows (requested_to_sync=
 * true, docs/platform.md F16) lists rows of all of them. docs/platform.md G28: each row is
 * answered with its own request's sync_request_id; G29: none is left for the platform's 5-minute
 * window to fail. The watchdogs' jobs wait (they first look a tenth of the window after each
 * press, and answer shortly before its deadline); here each is taken off its queue and its work is
 * run at once, as a lead fixed by the receiver's configuration runs it, in an order the test
 * chooses.
 */
const world = useSyncWorld({ settings: { transaction_sync_button_enabled: true } });
const redis = useTestRedis();
const { log, lines } = capturedLog();
/** Objects the ERP refuses with a temporary error: answered with a failure, they stay ready. */
const refused = new Set<string>();
let rig: ButtonRig;
let buttonEvents: QueueEvents;
let gate: GatedErp;
let ready: string[] = [];
/** Every press of the file: its id and the rows the stub requested under it. */
const presses = new Map<string, Press>();

interface Press {
  name: string;
  syncRequestId: string;
  objectIds: string[];
}

/** The ERP refuses the objects in `refused`, as a busy ERP would, and writes the rest. */
function refusing(erp: ErpAdapter): ErpAdapter {
  const busy = transient('ERP_BUSY', 'The ERP was busy');
  return new Proxy(erp, {
    get(target, prop, receiver) {
      if (prop === 'postMany') {
        return async (items: readonly ErpWrite[]): Promise<WriteResult[]> => {
          const written = await target.postMany(items.filter((i) => !refused.has(i.objectId)));
          const byId = new Map(written.map((r) => [r.objectId, r]));
          return items.map(
            (i) => byId.get(i.objectId) ?? { ok: false, kind: i.kind, objectId: i.objectId, error: busy },
          );
        };
      }
      const value = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

beforeAll(async () => {
  const connection = { connection: { url: redis.url }, prefix: redis.prefix };
  buttonEvents = new QueueEvents('sync-button', connection);
  gate = gatedErp(refusing(world.erp));
  rig = await startButtonRig(world, redis, { erp: gate.erp, log });
  await world.seed({
    seed: 43,
    transactions: 60,
    reimbursements: 0,
    bills: 0,
    transfers: 0,
    cashbacks: 0,
    ready_fraction: 1,
    synced_fraction: 0,
    vendor_creation_fraction: 0,
  });
  ready = (await world.platform.objects.ready(KIND_SPECS.transactions.list).collect()).values.map(
    (t) => t.id,
  );
  expect(ready.length).toBeGreaterThanOrEqual(40);
});

afterAll(async () => {
  gate?.open();
  await rig?.close();
  await buttonEvents?.close();
});

/** Rows nobody pressed yet, in a stable order. */
let next = 0;
function fresh(count: number): string[] {
  const ids = ready.slice(next, next + count);
  next += count;
  return ids;
}

async function press(name: string, objectIds: string[]): Promise<Press> {
  const answer = await world.control<{ sync_request_id: string; object_ids: string[] }>(
    'POST',
    '/__stub/sync-button',
    { object_type: 'TRANSACTION', object_ids: objectIds },
  );
  expect(new Set(answer.object_ids)).toEqual(new Set(objectIds));
  const pressed = { name, syncRequestId: answer.sync_request_id, objectIds: answer.object_ids };
  presses.set(pressed.syncRequestId, pressed);
  // The worker knows of the press once its event is recorded.
  await waitFor(
    async () =>
      (await world.db.sql`select 1 from sync_requests where sync_request_id = ${pressed.syncRequestId}`)
        .length > 0,
    { what: `the event of press ${name}` },
  );
  return pressed;
}

/** Rows the worker's latest reads attribute to the press. */
async function attributed(p: Press): Promise<string[]> {
  const rows = await world.db.sql<{ object_id: string }[]>`
    select object_id from sync_request_rows
    where sync_request_id = ${p.syncRequestId} and state = 'REQUESTED' order by object_id`;
  return rows.map((r) => r.object_id);
}

async function requestedNow(): Promise<string[]> {
  const listed = await world.platform.objects
    .ready(KIND_SPECS.transactions.list, { requestedToSync: true })
    .collect();
  return listed.values.map((t) => t.id).sort();
}

/**
 * For each row, the request of every result the stub took for it, in order: the press's name, or
 * `none` for a result posted without a sync_request_id. Every such result was applied (a row
 * fails in the ERP when its coding is incomplete; either way it has its answer), none REJECTED.
 */
async function answersOf(objectIds: string[]): Promise<Record<string, string[]>> {
  const wanted = new Set(objectIds);
  const out: Record<string, string[]> = Object.fromEntries(objectIds.map((id) => [id, []]));
  for (const m of await stubMarks(world)) {
    if (!wanted.has(m.object_id)) continue;
    expect(['SYNCED', 'FAILED']).toContain(m.result);
    const name = m.sync_request_id ? (presses.get(m.sync_request_id)?.name ?? m.sync_request_id) : 'none';
    out[m.object_id]!.push(name);
  }
  return out;
}

/** The results the stub took for one row, in order. */
async function resultsOf(objectId: string): Promise<string[]> {
  return (await stubMarks(world)).filter((m) => m.object_id === objectId).map((m) => m.result);
}

function each(objectIds: string[], answers: string[]): Record<string, string[]> {
  return Object.fromEntries(objectIds.map((id) => [id, answers]));
}

async function runWatchdog(p: Press): Promise<{ outcome: string; failed?: number; state?: string }> {
  const job = (await rig.queues.syncWatchdog.getJob(watchdogJobId(p.syncRequestId))) as Job;
  expect(await job.getState()).toBe('delayed');
  await job.remove();
  const deps = { sql: world.db.sql, syncPlatform: world.syncPlatform, log };
  const request = {
    connectionId: world.connectionId,
    objectType: 'TRANSACTION' as const,
    syncRequestId: p.syncRequestId,
  };
  return answerUnfinished(deps, request, { answerNow: true });
}

async function buttonRun(p: Press): Promise<Job> {
  return waitFor(() => rig.queues.syncButton.getJob(syncButtonJobId(p.syncRequestId)), {
    what: `the run of press ${p.name}`,
  });
}

describe('overlapping sync-button presses', () => {
  it('docs/platform.md G29: with every run held at the ERP, each watchdog answers its own rows only, under its own id', async () => {
    gate.close();
    const a = await press('A', fresh(5));
    await waitFor(async () => (await attributed(a)).length === 5, { what: "A's run to read its rows" });
    const b = await press('B', fresh(5));
    // B's run reads A's rows too (they are still requested) and keeps only its own.
    await waitFor(async () => (await attributed(b)).length === 5, { what: "B's run to read its rows" });
    expect(await attributed(a)).toEqual([...a.objectIds].sort());
    // Two runs are held at the ERP (the queue's concurrency): C's run waits, and C's rows are
    // first read by A's watchdog.
    const c = await press('C', fresh(5));
    expect(await requestedNow()).toEqual([...a.objectIds, ...b.objectIds, ...c.objectIds].sort());

    expect(await runWatchdog(a)).toMatchObject({ outcome: 'answered', failed: 5 });
    expect(await answersOf(a.objectIds)).toEqual(each(a.objectIds, ['A']));
    // B's and C's rows were not answered early for A: still requested, no result.
    expect(await answersOf([...b.objectIds, ...c.objectIds])).toEqual(
      each([...b.objectIds, ...c.objectIds], []),
    );
    expect(await requestedNow()).toEqual([...b.objectIds, ...c.objectIds].sort());

    // The watchdogs run out of order: C before B.
    expect(await runWatchdog(c)).toMatchObject({ outcome: 'answered', failed: 5 });
    expect(await answersOf(c.objectIds)).toEqual(each(c.objectIds, ['C']));
    expect(await answersOf(b.objectIds)).toEqual(each(b.objectIds, []));

    // D presses a row A answered (a failure leaves it ready) and new rows, while A, B and C are
    // still open on the platform: that row is in two requests.
    const [shared] = a.objectIds as [string];
    const d = await press('D', [shared, ...fresh(3)]);
    expect(await runWatchdog(b)).toMatchObject({ outcome: 'answered', failed: 5 });
    expect(await answersOf(b.objectIds)).toEqual(each(b.objectIds, ['B']));
    expect(await requestedNow()).toEqual([...d.objectIds].sort());
    expect(await runWatchdog(d)).toMatchObject({ outcome: 'answered', failed: 4 });
    expect(await answersOf(d.objectIds)).toEqual({
      ...each(d.objectIds, ['D']),
      [shared]: ['A', 'D'],
    });
    expect(await resultsOf(shared)).toEqual(['FAILED', 'FAILED']);
    expect(await requestedNow()).toEqual([]);

    const sample = await world.control<{
      state: { failures: { message: string; sync_request_id: string }[] };
    }>('GET', `/__stub/objects/transaction/${b.objectIds[0]}`);
    expect(sample.state.failures.at(-1)).toEqual(
      expect.objectContaining({ message: SYNC_TOO_LONG.message, sync_request_id: b.syncRequestId }),
    );

    // Released, the held runs find their requests answered and stop; C's and D's, queued behind
    // them, find theirs answered before they start.
    gate.open();
    for (const p of [a, b, c, d]) {
      const outcome = await (await buttonRun(p)).waitUntilFinished(buttonEvents, 20_000);
      expect(['stopped: request closed while running', 'skipped: request closed']).toContain(outcome.outcome);
      expect(outcome.state).toBe('ANSWERED');
    }
    const all = [...a.objectIds, ...b.objectIds, ...c.objectIds, ...d.objectIds];
    expect(await answersOf(all)).toEqual({
      ...each(a.objectIds, ['A']),
      ...each(b.objectIds, ['B']),
      ...each(c.objectIds, ['C']),
      ...each(d.objectIds, ['D']),
      [shared]: ['A', 'D'],
    });
  });

  it('docs/platform.md G28: each run answers its own rows of a read that lists every open request’s, under its own id', async () => {
    gate.close();
    const [x, ...pRows] = fresh(5) as [string, ...string[]];
    refused.add(x);
    const p = await press('P', [x, ...pRows]);
    await waitFor(async () => (await attributed(p)).length === 5, { what: "P's run to read its rows" });
    const q = await press('Q', fresh(5));
    await waitFor(async () => (await attributed(q)).length === 5, { what: "Q's run to read its rows" });
    const r = await press('R', fresh(5));
    expect(await requestedNow()).toEqual([...p.objectIds, ...q.objectIds, ...r.objectIds].sort());

    gate.open();
    for (const pressed of [p, q, r]) {
      const outcome = await (await buttonRun(pressed)).waitUntilFinished(buttonEvents, 30_000);
      // Each run read every requested row and worked on its own five only.
      expect(outcome).toMatchObject({ outcome: 'answered', summary: { read: 5 } });
    }
    expect(await answersOf([...p.objectIds, ...q.objectIds, ...r.objectIds])).toEqual({
      ...each(p.objectIds, ['P']),
      ...each(q.objectIds, ['Q']),
      ...each(r.objectIds, ['R']),
    });

    // x failed under P and stays ready; S presses it again while P is still open.
    const s = await press('S', [x, ...fresh(3)]);
    const outcome = await (await buttonRun(s)).waitUntilFinished(buttonEvents, 30_000);
    expect(outcome).toMatchObject({ outcome: 'answered', summary: { read: 4 } });
    expect(await answersOf(s.objectIds)).toEqual({
      ...each(s.objectIds, ['S']),
      [x]: ['P', 'S'],
    });
    // The ERP refused x both times: a failure, which leaves it ready (docs/platform.md G27).
    expect(await resultsOf(x)).toEqual(['FAILED', 'FAILED']);
    expect(await requestedNow()).toEqual([]);
  });

  it('docs/platform.md G29: no row expires; later watchdogs find nothing left; one log line per answer with its latency', async () => {
    for (const name of ['P', 'Q', 'R', 'S']) {
      const p = [...presses.values()].find((x) => x.name === name)!;
      expect(await runWatchdog(p)).toEqual({ outcome: 'nothing to do', state: 'ANSWERED' });
    }
    const clock = await world.control<{ expired_rows: number }>('POST', '/__stub/clock', {
      advance_ms: 301_000,
    });
    expect(clock.expired_rows).toBe(0);
    for (const p of presses.values()) {
      const request = await world.control<{ open: boolean; expired_rows: number }>(
        'GET',
        `/__stub/sync-requests/${p.syncRequestId}`,
      );
      expect({ press: p.name, open: request.open, expired: request.expired_rows }).toEqual({
        press: p.name,
        open: false,
        expired: 0,
      });
    }
    // Every result the stub took for a pressed row carries the id of a request that row was in.
    for (const m of await stubMarks(world)) {
      const owners = [...presses.values()].filter((p) => p.objectIds.includes(m.object_id));
      if (owners.length === 0) continue;
      expect(owners.map((p) => p.syncRequestId)).toContain(m.sync_request_id);
    }

    const answered = lines
      .map(
        (line) =>
          JSON.parse(line) as {
            msg: string;
            syncRequestId?: string;
            latencyMs?: unknown;
            answeredBy?: string;
          },
      )
      .filter((l) => l.msg === 'sync-button request answered');
    const byPress = [...presses.values()].map((p) => {
      const mine = answered.filter((l) => l.syncRequestId === p.syncRequestId);
      return {
        press: p.name,
        lines: mine.length,
        by: mine[0]?.answeredBy,
        latency: typeof mine[0]?.latencyMs,
      };
    });
    expect(byPress).toEqual(
      [...presses.values()].map((p) => ({
        press: p.name,
        lines: 1,
        by: ['A', 'B', 'C', 'D'].includes(p.name) ? 'watchdog' : 'run',
        latency: 'number',
      })),
    );
  });
});
