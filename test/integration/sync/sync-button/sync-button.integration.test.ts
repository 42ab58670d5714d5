import { makeId, parseId } from '@ledgersync/stub';
import { QueueEvents } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../../src/log.ts';
import { KIND_SPECS } from '../../../../src/sync/objects/index.ts';
import { useTestRedis } from '../../../support/redis.ts';
import { useSyncWorld } from '../../../support/sync-world.ts';
import { waitFor } from '../../support.ts';
import { type ButtonRig, startButtonRig, stubMarks } from './button-rig.ts';

/**
 * docs/platform.md G28 and G29, end to end: the stub's button press → signed webhook →
 * receiver → sync-button queue → run that posts with the sync_request_id, while a large
 * background sync of the same kind runs on the object-sync queue. The background backlog needs more
 * requests than the rate limit allows in two windows, so the button's run (in the limiter's priority
 * lane) is answered while the background run is still under way.
 */
const world = useSyncWorld({ settings: { transaction_sync_button_enabled: true } });
const redis = useTestRedis();
let rig: ButtonRig;
let events: QueueEvents;
let firstId: string;

beforeAll(async () => {
  events = new QueueEvents('object-sync', { connection: { url: redis.url }, prefix: redis.prefix });
  rig = await startButtonRig(world, redis, { erp: world.erp, log: silentLogger });
  await world.seed({
    seed: 21,
    // Four windows of the client's 200 requests: the background run outlasts the press by design.
    transactions: 40_000,
    reimbursements: 0,
    bills: 0,
    transfers: 0,
    cashbacks: 0,
    ready_fraction: 1,
    synced_fraction: 0,
    vendor_creation_fraction: 0,
  });
  for await (const page of world.platform.objects.ready(KIND_SPECS.transactions.list).pages()) {
    const first = page.items[0];
    if (first?.ok) firstId = first.value.id;
    break;
  }
});

afterAll(async () => {
  await rig?.close();
  await events?.close();
});

describe('sync button', () => {
  it('docs/platform.md G28: a press for 1,000 rows is answered in full, with its sync_request_id, while a large background sync runs', async () => {
    const background = await rig.queues.objectSync.add('sync', {
      connectionId: world.connectionId,
      kind: 'transactions',
      trigger: 'cron',
    });
    await waitFor(
      async () => ((await rig.queues.objectSync.getJob(background.id!))?.progress as { read?: number })?.read,
      {
        what: 'the background sync to be under way',
      },
    );
    // The newest 1,000 rows: the background run reads them last, however it splits the backlog, so
    // the press's rows are the button run's to write and post page by page.
    const seeded = parseId(firstId)!;
    const newest = Array.from({ length: 1000 }, (_, i) => makeId(seeded.prefix, seeded.code, 39_000 + i));
    const press = await world.control<{ sync_request_id: string; object_ids: string[] }>(
      'POST',
      '/__stub/sync-button',
      { object_type: 'TRANSACTION', object_ids: newest },
    );
    expect(press.object_ids).toHaveLength(1000);
    const id = press.sync_request_id;
    const answered = await waitFor(
      async () => {
        const [row] = await world.db.sql<{ state: string; watchdog_failed: number }[]>`
          select state, watchdog_failed from sync_requests where sync_request_id = ${id}`;
        return row?.state === 'ANSWERED' ? row : null;
      },
      { timeoutMs: 45_000, what: 'the sync request to be answered' },
    );
    expect(answered.watchdog_failed).toBe(0);
    // The background run was still going: the button did not wait behind it.
    expect(await background.getState()).toBe('active');

    const button = await world.control<{ expired_rows: number }>('GET', `/__stub/sync-requests/${id}`);
    expect(button.expired_rows).toBe(0);

    // Several posts per sync_request_id (one per page as results are ready).
    const [posts] = await world.db.sql<{ n: number }[]>`
      select count(*)::int as n from result_batches where sync_request_id = ${id} and state = 'ACKED'`;
    expect(posts!.n).toBeGreaterThan(1);

    const done = await background.waitUntilFinished(events, 90_000);
    expect(done.outcome).toBe('synced');
    const marks = await stubMarks(world);
    // Every requested row got a posted result: with the request's id, or (when the background run
    // reached it first) by the regular run. None is left for the window to expire.
    const answeredIds = new Set(
      marks.filter((m) => m.sync_request_id === id && m.result !== 'REJECTED').map((m) => m.object_id),
    );
    const postedIds = new Set(marks.filter((m) => m.result !== 'REJECTED').map((m) => m.object_id));
    const missing = press.object_ids.filter(
      (objectId) => !answeredIds.has(objectId) && !postedIds.has(objectId),
    );
    expect(missing).toEqual([]);
    expect(answeredIds.size).toBeGreaterThan(0);
    const clock = await world.control<{ expired_rows: number }>('POST', '/__stub/clock', {
      advance_ms: 301_000,
    });
    expect(clock.expired_rows).toBe(0);
    const summary = await world.control<{ summary: { synced_more_than_once: unknown[] } }>(
      'GET',
      '/__stub/effects?summary=true&limit=1',
    );
    expect(summary.summary.synced_more_than_once).toEqual([]);
  }, 120_000);
});
