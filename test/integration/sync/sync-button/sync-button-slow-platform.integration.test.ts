import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../../src/log.ts';
import { useTestRedis } from '../../../support/redis.ts';
import { useSyncWorld } from '../../../support/sync-world.ts';
import { waitFor } from '../../support.ts';
import { type ButtonRig, startButtonRig, stubMarks } from './button-rig.ts';

/**
 * docs/platform.md G28 and G29 against a slow platform: reads answered in 15 s, result posts in
 * 8 s and every other call in 5 s, a press of 1,500 rows (15 pages of 100). A run that read every
 * page before answering any spent 225 s of the 5 minutes reading, and its answers arrived after
 * the deadline; a watchdog that read every page again from the first spent its 3 minutes reading
 * and answered after the deadline (issue 59). The run reads the next page while it writes and
 * posts the last, so it answers a page every 15 s, and the watchdog reads only what it has not.
 *
 * Run scaled down by ten, so the suite stays short: a 30 s window (the stub's `sync_window_ms`,
 * and the receiver's, so the run's deadline and the watchdog's times are the same 30 s), reads of
 * 1.5 s, posts of 0.8 s and other calls of 0.5 s. Every duration that decides the outcome (the
 * window, each call, the watchdog's margins, which scale with the window) shrinks by the same
 * factor, so whether the last page is answered before the deadline is decided by the same
 * ratios. What does not shrink (the ERP writes and database round trips, tens of milliseconds a
 * page) is a larger share of the scaled window, so the scaled run is the harder one. The same
 * press at full scale is test/chaos/slow-platform-press.chaos.test.ts.
 */
const WINDOW_MS = 30_000;
const ROWS = 1_500;
const world = useSyncWorld({ settings: { transaction_sync_button_enabled: true } });
const redis = useTestRedis();
let rig: ButtonRig;

beforeAll(async () => {
  rig = await startButtonRig(world, redis, { erp: world.erp, log: silentLogger, syncWindowMs: WINDOW_MS });
  await world.seed({
    seed: 41,
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
      'GET /transactions': { latency_ms: 1_500 },
      'POST /accounting/syncs': { latency_ms: 800 },
      '*': { latency_ms: 500 },
    },
  });
});

afterAll(async () => {
  await world.control('PUT', '/__stub/faults', { routes: {} }).catch(() => undefined);
  await rig?.close();
});

interface Arrival {
  seq: number;
  method: string;
  route: string;
  status: number;
}

async function arrivalsSoFar(): Promise<number> {
  const { arrivals } = await world.control<{ arrivals: Arrival[] }>(
    'GET',
    '/__stub/effects?include=arrivals&limit=100000',
  );
  return arrivals.at(-1)?.seq ?? -1;
}

async function arrivalsSince(seq: number): Promise<Arrival[]> {
  const { arrivals } = await world.control<{ arrivals: Arrival[] }>(
    'GET',
    '/__stub/effects?include=arrivals&limit=100000',
  );
  return arrivals.filter((a) => a.seq > seq);
}

describe('sync button on a slow platform', () => {
  it('docs/platform.md G29: with reads of 15 s, posts of 8 s and other calls of 5 s (scaled), a 1,500-row press is answered in full before its deadline, each row once, each page read once', async () => {
    const since = await arrivalsSoFar();
    const press = await world.control<{ sync_request_id: string; object_ids: string[] }>(
      'POST',
      '/__stub/sync-button',
      { object_type: 'TRANSACTION', limit: ROWS },
    );
    expect(press.object_ids).toHaveLength(ROWS);
    const id = press.sync_request_id;
    // The stub closes the request at its deadline and fails every row still unanswered then.
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
    expect(closed.expired_rows).toBe(0);

    const marks = (await stubMarks(world)).filter((m) => m.sync_request_id === id);
    expect(marks.filter((m) => m.result === 'EXPIRED')).toEqual([]);
    const answered = marks.filter((m) => m.result !== 'REJECTED');
    // Every row of the press answered under its id, and none twice.
    expect(new Set(answered.map((m) => m.object_id))).toEqual(new Set(press.object_ids));
    expect(answered).toHaveLength(ROWS);
    const [request] = await world.db.sql<{ state: string; cut_short: boolean }[]>`
      select state, cut_short from sync_requests where sync_request_id = ${id}`;
    expect(request).toEqual({ state: 'ANSWERED', cut_short: false });
    // 15 pages, each read once: nothing read them again (a watchdog that read the whole list
    // again from its first page read 10 more and answered after the deadline).
    const reads = (await arrivalsSince(since)).filter(
      (a) => a.method === 'GET' && a.route === '/transactions',
    );
    expect(reads.length).toBeGreaterThanOrEqual(15);
    expect(reads.length).toBeLessThanOrEqual(16);
    expect(reads.every((a) => a.status === 200)).toBe(true);
  }, 90_000);
});
