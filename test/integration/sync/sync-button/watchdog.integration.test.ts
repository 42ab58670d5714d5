import { QueueEvents } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncButtonJobId } from '../../../../src/queue/index.ts';
import { SYNC_TOO_LONG } from '../../../../src/sync/sync-button/answer-unfinished.ts';
import { capturedLog } from '../../../support/captured-log.ts';
import { useTestRedis } from '../../../support/redis.ts';
import { useSyncWorld } from '../../../support/sync-world.ts';
import { type GatedErp, gatedErp, postWebhook, sign, waitFor } from '../../support.ts';
import { type ButtonRig, type Mark, startButtonRig, stubMarks } from './button-rig.ts';

/**
 * docs/platform.md G29 (unposted requested rows are marked failed after 5 minutes) and
 * the design rule ("before the deadline post a temporary failure for any row not done"): with the run held
 * at the ERP, the watchdog answers every requested row before the stub's clock crosses the window.
 * The watchdog's lead is 299 s here, so it runs about a second after the press.
 */
const world = useSyncWorld({ settings: { transaction_sync_button_enabled: true } });
const redis = useTestRedis();
const { log, lines } = capturedLog();
let rig: ButtonRig;
let events: QueueEvents;
let gate: GatedErp;

beforeAll(async () => {
  events = new QueueEvents('sync-button', { connection: { url: redis.url }, prefix: redis.prefix });
  gate = gatedErp(world.erp);
  rig = await startButtonRig(world, redis, { erp: gate.erp, log, watchdogLeadMs: 299_000 });
  await world.seed({
    seed: 31,
    transactions: 400,
    reimbursements: 20,
    bills: 0,
    transfers: 0,
    cashbacks: 0,
    ready_fraction: 1,
    synced_fraction: 0,
    vendor_creation_fraction: 0,
  });
});

afterAll(async () => {
  gate?.open();
  await rig?.close();
  await events?.close();
});

async function marksFor(syncRequestId: string): Promise<Mark[]> {
  return (await stubMarks(world)).filter((m) => m.sync_request_id === syncRequestId);
}

describe('sync-button watchdog', () => {
  it('docs/platform.md G29: with the run stuck, every requested row gets a temporary failure before the window closes', async () => {
    gate.close();
    const press = await world.control<{ sync_request_id: string; object_ids: string[] }>(
      'POST',
      '/__stub/sync-button',
      { object_type: 'TRANSACTION', limit: 250 },
    );
    const id = press.sync_request_id;
    await waitFor(() => gate.waiting.has('card_transaction'), { what: 'the button run to reach the ERP' });
    const answered = await waitFor(
      async () => {
        const [row] = await world.db.sql<{ state: string; watchdog_failed: number }[]>`
          select state, watchdog_failed from sync_requests where sync_request_id = ${id}`;
        return row?.state === 'ANSWERED' ? row : null;
      },
      { what: 'the watchdog to answer', timeoutMs: 20_000 },
    );
    expect(answered.watchdog_failed).toBe(250);

    const marks = await marksFor(id);
    expect(new Set(marks.filter((m) => m.result === 'FAILED').map((m) => m.object_id))).toEqual(
      new Set(press.object_ids),
    );
    const sample = await world.control<{
      state: { failures: { message: string; sync_request_id: string }[] };
    }>('GET', `/__stub/objects/transaction/${press.object_ids[0]}`);
    expect(sample.state.failures.at(-1)).toMatchObject({
      message: SYNC_TOO_LONG.message,
      sync_request_id: id,
    });
    expect(SYNC_TOO_LONG.message).toMatch(/^Temporary problem: .*took too long.*retried automatically/);

    const clock = await world.control<{ expired_rows: number }>('POST', '/__stub/clock', {
      advance_ms: 301_000,
    });
    expect(clock.expired_rows).toBe(0);
    expect(
      (await world.control<{ expired_rows: number }>('GET', `/__stub/sync-requests/${id}`)).expired_rows,
    ).toBe(0);

    // The held run stops at its next page. The one page it had read ahead before the watchdog ran
    // is still written and reported (its own outcome after the temporary failure); nothing else.
    gate.open();
    const run = await rig.queues.syncButton.getJob(syncButtonJobId(id));
    expect(await run!.waitUntilFinished(events, 20_000)).toEqual({
      outcome: 'stopped: request closed while running',
      state: 'ANSWERED',
    });
    const late = (await marksFor(id)).slice(marks.length);
    expect(late.every((m) => m.result === 'SYNCED' || m.result === 'FAILED')).toBe(true);
    expect(late.length).toBeLessThanOrEqual(100);
  });

  it('the rows answered with a temporary failure stay ready and the next sync writes each to the ERP once', async () => {
    const job = await rig.queues.objectSync.add('sync', {
      connectionId: world.connectionId,
      kind: 'transactions',
      trigger: 'cron',
    });
    const objectEvents = new QueueEvents('object-sync', {
      connection: { url: redis.url },
      prefix: redis.prefix,
    });
    try {
      expect((await job.waitUntilFinished(objectEvents, 30_000)).outcome).toBe('synced');
    } finally {
      await objectEvents.close();
    }
    const summary = await world.control<{ summary: { synced_more_than_once: unknown[] } }>(
      'GET',
      '/__stub/effects?summary=true&limit=1',
    );
    expect(summary.summary.synced_more_than_once).toEqual([]);
    const [dupes] = await world.db.sql<{ n: number }[]>`
      select count(*)::int as n from (
        select source_kind, source_object_id from ${world.db.sql(world.ledgerSchema)}.journal_entries
        group by source_kind, source_object_id having count(*) > 1) d`;
    expect(dupes?.n).toBe(0);
  });

  it("docs/platform.md G28: with the connection's flag off the event is ignored, with a log line", async () => {
    const [subscription] = await world.db.sql<{ secret: string }[]>`
      select secret from webhook_subscriptions where status = 'active' limit 1`;
    const secret = subscription!.secret;
    const event = {
      id: 'evt-reimb-1',
      type: 'reimbursements.sync_requested',
      created_at: (await world.control<{ now: string }>('GET', '/__stub/clock')).now,
      business_id: 'b',
      object: { id: 'req-reimb-1', sync_request_id: 'req-reimb-1' },
    };
    const body = JSON.stringify(event);
    expect((await postWebhook(rig.endpoint, body, sign(body, secret))).status).toBe(200);
    const run = await waitFor(() => rig.queues.syncButton.getJob(syncButtonJobId('req-reimb-1')));
    expect(await run.waitUntilFinished(events, 10_000)).toEqual({ outcome: 'ignored: sync button disabled' });
    const [row] = await world.db.sql<{ state: string }[]>`
      select state from sync_requests where sync_request_id = 'req-reimb-1'`;
    expect(row?.state).toBe('IGNORED');
    expect(lines.some((l) => l.includes('reimbursement_sync_button_enabled setting is off'))).toBe(true);
    // Secrets never reach the log.
    expect(lines.some((l) => l.includes(secret))).toBe(false);
  });
});
