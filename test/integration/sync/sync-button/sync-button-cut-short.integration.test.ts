import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatStatus, statusReport } from '../../../../src/operations/index.ts';
import { watchdogJobId } from '../../../../src/queue/index.ts';
import { SYNC_TOO_LONG } from '../../../../src/sync/sync-button/answer-unfinished.ts';
import { capturedLog } from '../../../support/captured-log.ts';
import { useTestRedis } from '../../../support/redis.ts';
import { useSyncWorld } from '../../../support/sync-world.ts';
import { type GatedErp, gatedErp, waitFor } from '../../support.ts';
import { type ButtonRig, startButtonRig, stubMarks } from './button-rig.ts';

/**
 * docs/platform.md G29 when the work left cannot fit in the window: a press of 800 rows (8 pages)
 * on a platform that answers a read in 3 s, with a 24 s window. The run answers its first pages,
 * then is held at the ERP: it has read one page ahead, and reads no further. The watchdog takes
 * the reading up where the run's read stopped (it never reads those pages again), and when the
 * pages left cannot all be read before its answer is due, it answers every row it knows of (a
 * temporary failure where nothing else is known) before the deadline, leaves the rows no read
 * reached to the platform's window, and `status` says the press was cut short.
 */
const WINDOW_MS = 24_000;
const ROWS = 800;
const world = useSyncWorld({ settings: { transaction_sync_button_enabled: true } });
const redis = useTestRedis();
const { log } = capturedLog();
let rig: ButtonRig;
let gate: GatedErp;

beforeAll(async () => {
  gate = gatedErp(world.erp);
  rig = await startButtonRig(world, redis, { erp: gate.erp, log, syncWindowMs: WINDOW_MS });
  await world.seed({
    seed: 43,
    transactions: ROWS,
    reimbursements: 0,
    bills: 0,
    transfers: 0,
    cashbacks: 0,
    ready_fraction: 1,
    synced_fraction: 0,
    vendor_creation_fraction: 0,
  });
  await world.control('PUT', '/__stub/config', { sync_window_ms: WINDOW_MS });
  await world.control('PUT', '/__stub/faults', {
    routes: {
      'GET /transactions': { latency_ms: 3_000 },
      'POST /accounting/syncs': { latency_ms: 300 },
      '*': { latency_ms: 200 },
    },
  });
});

afterAll(async () => {
  gate?.open();
  await world.control('PUT', '/__stub/faults', { routes: {} }).catch(() => undefined);
  await rig?.close();
});

describe('sync button: a press the platform is too slow to read in its window', () => {
  it('docs/platform.md G29: the watchdog answers every row it knows of before the deadline, reads only what the run did not, and status says the press was cut short', async () => {
    const { arrivals: before } = await world.control<{ arrivals: { seq: number }[] }>(
      'GET',
      '/__stub/effects?include=arrivals&limit=100000',
    );
    const press = await world.control<{ sync_request_id: string; object_ids: string[]; deadline: string }>(
      'POST',
      '/__stub/sync-button',
      { object_type: 'TRANSACTION', limit: ROWS },
    );
    const id = press.sync_request_id;
    // The run answers two pages, then waits at the ERP (with the next page read ahead).
    await waitFor(
      async () =>
        (await stubMarks(world)).filter((m) => m.sync_request_id === id).length >= 200 ? true : null,
      {
        what: 'the run to answer its first two pages',
        timeoutMs: WINDOW_MS,
      },
    );
    gate.close();
    // Until its reading is due, the watchdog waits as a delayed job that looks again now and
    // then (BullMQ's lock token is handed on for that), not in a worker's slot.
    const watchdog = await rig.queues.syncWatchdog.getJob(watchdogJobId(id));
    await waitFor(async () => (await watchdog?.getState()) === 'delayed', {
      what: 'the watchdog to wait as a delayed job',
      timeoutMs: 2_000,
    });

    const closed = await waitFor(
      async () => {
        const request = await world.control<{ open: boolean; expired_rows: number }>(
          'GET',
          `/__stub/sync-requests/${id}`,
        );
        return request.open ? null : request;
      },
      { timeoutMs: WINDOW_MS + 15_000, what: 'the stub to close the sync request at its deadline' },
    );
    // The premise: the rows no read reached in time expired on the platform.
    expect(closed.expired_rows).toBeGreaterThan(0);

    const [request] = await world.db.sql<{ state: string; cut_short: boolean; answered_at: Date }[]>`
      select state, cut_short, answered_at from sync_requests where sync_request_id = ${id}`;
    expect(request).toMatchObject({ state: 'ANSWERED', cut_short: true });
    const deadline = Date.parse(press.deadline);
    const marks = (await stubMarks(world)).filter((m) => m.sync_request_id === id);
    // Every requested row has one result: an answer, or the platform's EXPIRED; none has two.
    expect(marks.map((m) => m.object_id).sort()).toEqual([...press.object_ids].sort());
    const answered = marks.filter((m) => m.result !== 'EXPIRED');
    expect(answered.filter((m) => m.at >= deadline)).toEqual([]);

    // Every row a read had listed by the watchdog's answer was answered, the held ones with the
    // temporary failure, which leaves them ready for the next sync.
    const known = await world.db.sql<{ object_id: string }[]>`
      select object_id from sync_request_rows
      where sync_request_id = ${id} and first_seen_by < ${request!.answered_at}`;
    const answeredIds = new Set(answered.map((m) => m.object_id));
    expect(known.filter((r) => !answeredIds.has(r.object_id))).toEqual([]);
    const temporary = answered.filter((m) => m.result === 'FAILED');
    expect(temporary.length).toBeGreaterThanOrEqual(100);
    const sample = await world.control<{ state: { failures: { message: string }[] } }>(
      'GET',
      `/__stub/objects/transaction/${temporary.at(-1)!.object_id}`,
    );
    expect(sample.state.failures.map((f) => f.message)).toContain(SYNC_TOO_LONG.message);

    // The run read two pages, held at the third with the fourth read ahead; the watchdog went on
    // from there. No page was read twice: a watchdog reading from the first page again would read
    // the run's four first.
    const { arrivals } = await world.control<{ arrivals: { seq: number; method: string; route: string }[] }>(
      'GET',
      '/__stub/effects?include=arrivals&limit=100000',
    );
    const reads = arrivals.filter(
      (a) => a.seq > (before.at(-1)?.seq ?? -1) && a.method === 'GET' && a.route === '/transactions',
    );
    expect(reads.length).toBeGreaterThanOrEqual(4);
    expect(reads.length).toBeLessThanOrEqual(6);

    const text = formatStatus(
      await statusReport(world.db.sql, world.connectionId, { queues: rig.queues.all() }),
    );
    expect(text).toMatch(
      /1 press cut short \(latest pressed .+\): the platform answered its reads too slowly/,
    );
  }, 90_000);
});
