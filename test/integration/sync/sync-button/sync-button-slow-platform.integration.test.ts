import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../../src/log.ts';
import { useTestRedis } from '../../../support/redis.ts';
import { useSyncWorld } from '../../../support/sync-world.ts';
import { waitFor } from '../../support.ts';
import { type ButtonRig, startButtonRig, stubMarks } from './button-rig.ts';

/**
 * docs/platform.md G28 and G29 against a slow platform: reads answered in 15 s and result posts
 * in 8 s, a press of 1,500 rows (15 pages of 100). A run that read every page before answering
 * any spent 225 s of the 5 minutes reading, and its answers arrived after the deadline.
 *
 * Run scaled down by ten, so the suite stays short: a 30 s window (the stub's `sync_window_ms`,
 * and the receiver's, so the run's deadline and the watchdog's bounds are the same 30 s), reads of
 * 1.5 s and posts of 0.8 s. Every duration that decides the outcome (the window, each read, each
 * post, the watchdog's bounds, which are fractions of the window) shrinks by the same factor, so
 * whether the last page is answered before the deadline is decided by the same ratios. What does
 * not shrink (the ERP writes and database round trips, tens of milliseconds a page) is a larger
 * share of the scaled window, so the scaled run is the harder one.
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
    routes: { 'GET /transactions': { latency_ms: 1_500 }, 'POST /accounting/syncs': { latency_ms: 800 } },
  });
});

afterAll(async () => {
  await world.control('PUT', '/__stub/faults', { routes: {} }).catch(() => undefined);
  await rig?.close();
});

describe('sync button on a slow platform', () => {
  it('docs/platform.md G29: with reads of 15 s and posts of 8 s (scaled), a 1,500-row press is answered in full before its deadline, each row once', async () => {
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
    const [request] = await world.db.sql<{ state: string }[]>`
      select state from sync_requests where sync_request_id = ${id}`;
    expect(request?.state).toBe('ANSWERED');
  }, 90_000);
});
