import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { WebhookEvent } from '../../../../src/platform/schemas/webhooks.ts';
import { type Harness, harness, tokenFor, waitFor } from './helpers.ts';
import { type Receiver, startReceiver } from './receiver.ts';

/** Outbound webhooks: docs/platform.md F20 (challenge), F21 (envelope, signature, retries, disorder). */
describe('stub webhooks', () => {
  let h: Harness;
  let receiver: Receiver;
  beforeAll(async () => {
    h = await harness({ config: { webhookRetryBaseMs: 5 } });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await h.stub.close();
    await receiver.close();
  });
  beforeEach(async () => {
    await h.control.post('/reset');
    h.api.setToken(await tokenFor(h.stub));
    receiver.deliveries.length = 0;
    receiver.script = [];
    await h.api.post('/accounting/connection', {
      remote_provider_name: 'Tryton',
      settings: { transaction_sync_button_enabled: true },
    });
    await h.control.post('/seed', { seed: 4, transactions: 30, bills: 30 });
  });

  const subscribe = async (eventTypes: string[]) => {
    const created = await h.api.post('/webhooks', { endpoint_url: receiver.url, event_types: eventTypes });
    expect(created.status).toBe(201);
    const challenge = await waitFor(() => receiver.deliveries.find((d) => 'challenge' in d.json));
    const verify = await h.api.post(`/webhooks/${created.body.id}/verify`, {
      challenge: challenge.json.challenge,
    });
    expect(verify.body).toEqual({ success: true });
    receiver.deliveries.length = 0;
    return created.body as { id: string; secret: string };
  };

  it('F20: subscribe → pending_verification with a secret; the challenge is POSTed; verify activates', async () => {
    const created = await h.api.post('/webhooks', {
      endpoint_url: receiver.url,
      event_types: ['bills.paid'],
    });
    expect(created.body).toMatchObject({ status: 'pending_verification', secret: expect.any(String) });
    const challenge = await waitFor(() => receiver.deliveries.find((d) => 'challenge' in d.json));
    const wrong = await h.api.post(`/webhooks/${created.body.id}/verify`, { challenge: 'wrong' });
    expect(wrong.status).toBe(422);
    await h.api.post(`/webhooks/${created.body.id}/verify`, { challenge: challenge.json.challenge });
    expect((await h.api.get(`/webhooks/${created.body.id}`)).body).toMatchObject({ status: 'active' });
    expect((await h.api.get(`/webhooks/${created.body.id}`)).body.secret).toBeUndefined();
  });

  it('F20: subscribing needs the read scope of the event resource', async () => {
    const narrow = await tokenFor(h.stub, 'accounting:read');
    h.api.setToken(narrow);
    const res = await h.api.post('/webhooks', { endpoint_url: receiver.url, event_types: ['bills.paid'] });
    expect(res.status).toBe(403);
    expect(res.body.error_v2.additional_info.required_scopes).toEqual(['bills:read']);
  });

  it('F21: envelope {id, type, created_at, business_id, object} signed with hex HMAC-SHA256 of the raw body', async () => {
    const sub = await subscribe(['bills.paid', 'bills.ready_to_sync']);
    const bill = (await h.api.get('/bills?sync_status=BILL_SYNCED&status=OPEN&page_size=2')).body.data[0];
    await h.control.post(`/bills/${bill.id}/pay`);
    await waitFor(() => receiver.deliveries.length >= 2);
    const types = receiver.deliveries.map((d) => d.json.type).sort();
    expect(types).toEqual(['bills.paid', 'bills.ready_to_sync']);
    for (const d of receiver.deliveries) {
      const event = WebhookEvent.parse(d.json);
      expect(event.object.id).toBe(bill.id);
      expect(d.signature).toBe(createHmac('sha256', sub.secret).update(d.body).digest('hex'));
    }
  });

  it('F21: failed deliveries (5xx, 429) are retried with backoff under the same event id', async () => {
    await subscribe(['transactions.ready_to_sync']);
    receiver.script = [500, 429, 503];
    const txn = (await h.api.get('/transactions?sync_status=NOT_SYNC_READY&page_size=2')).body.data[0];
    await h.control.post('/ready', { object_type: 'TRANSACTION', object_ids: [txn.id] });
    await waitFor(() => receiver.deliveries.length >= 4);
    const ids = new Set(receiver.deliveries.map((d) => d.json.id));
    expect(ids.size).toBe(1);
    expect(receiver.deliveries[0]!.json).toMatchObject({
      type: 'transactions.ready_to_sync',
      object: { id: txn.id },
    });
    const log = (await h.control.get('/webhooks')).body.deliveries.filter(
      (d: { type: string }) => d.type === 'transactions.ready_to_sync',
    );
    expect(log.map((d: { status: number }) => d.status)).toEqual([500, 429, 503, 200]);
    expect(log.map((d: { attempt: number }) => d.attempt)).toEqual([1, 2, 3, 4]);
  });

  it('F21: at most 10 retries (11 attempts) against an endpoint that keeps failing', async () => {
    await subscribe(['bills.paid']);
    receiver.script = Array.from({ length: 20 }, () => 500);
    const bill = (await h.api.get('/bills?status=OPEN&page_size=2')).body.data[0];
    await h.control.post(`/bills/${bill.id}/pay`);
    await waitFor(
      async () => (await h.control.get('/webhooks')).body.pending === 0 && receiver.deliveries.length > 1,
      10_000,
    );
    expect(receiver.deliveries).toHaveLength(11);
  });

  it('F21: duplicate and out-of-order deliveries (faults) keep event ids', async () => {
    await subscribe(['transactions.ready_to_sync']);
    await h.control.put('/faults', {
      webhooks: { duplicate_rate: 1, out_of_order: true, out_of_order_window_ms: 30 },
    });
    const txns = (await h.api.get('/transactions?sync_status=NOT_SYNC_READY&page_size=3')).body.data;
    await h.control.post('/ready', {
      object_type: 'TRANSACTION',
      object_ids: txns.map((t: { id: string }) => t.id),
    });
    await waitFor(() => receiver.deliveries.length >= txns.length * 2);
    const objectOrder = receiver.deliveries.map((d) => d.json.object.id);
    expect(new Set(objectOrder).size).toBe(txns.length);
    expect(objectOrder[0]).toBe(txns.at(-1).id);
    const perEvent = new Map<string, number>();
    for (const d of receiver.deliveries) perEvent.set(d.json.id, (perEvent.get(d.json.id) ?? 0) + 1);
    expect([...perEvent.values()]).toEqual([2, 2, 2]);
    await h.control.put('/faults', {});
  });

  it('events: new bills announce bills.created, bills.approved and bills.ready_to_sync', async () => {
    await subscribe(['bills.approved', 'bills.ready_to_sync']);
    const added = await h.control.post('/objects/bills', { count: 1 });
    await waitFor(() => receiver.deliveries.length >= 2);
    expect(receiver.deliveries.map((d) => d.json.type).sort()).toEqual([
      'bills.approved',
      'bills.ready_to_sync',
    ]);
    expect(receiver.deliveries[0]!.json.object.id).toBe(added.body.ids[0]);
  });

  it('F21: sync-button events carry object.sync_request_id', async () => {
    await subscribe(['transactions.sync_requested']);
    const pressed = await h.control.post('/sync-button', { object_type: 'TRANSACTION' });
    const d = await waitFor(() => receiver.deliveries[0]);
    expect(d.json).toMatchObject({
      type: 'transactions.sync_requested',
      object: { id: pressed.body.sync_request_id, sync_request_id: pressed.body.sync_request_id },
    });
  });
});
