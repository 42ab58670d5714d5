import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, harness, tokenFor, waitFor } from './helpers.ts';
import { type Receiver, startReceiver } from './receiver.ts';

/**
 * Sync answers, codings and webhooks as the published API reference describes them:
 * docs/platform.md F31 (mock webhook event), F32 (GET /webhooks is a bare array), F33 (the
 * `{sync_id}` answer and the published sync types) and F35 (codings by platform ids).
 */
describe('stub syncs, codings and webhooks of the published API', () => {
  let h: Harness;
  let receiver: Receiver;
  let key = 0;
  const nextKey = () => `pub-${++key}`;
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
    await h.control.put('/config', { published_answers: false });
    h.api.setToken(await tokenFor(h.stub));
    receiver.deliveries.length = 0;
    receiver.script = [];
    await h.api.post('/accounting/connection', { remote_provider_name: 'Tryton' });
    await h.api.post('/accounting/accounts', {
      gl_accounts: [
        { id: '6000', name: 'Meals', classification: 'EXPENSE' },
        { id: '6100', name: 'Travel', classification: 'EXPENSE' },
      ],
    });
    await h.control.post('/seed', {
      seed: 33,
      transactions: 40,
      uncoded_fraction: 0,
      unknown_coding_fraction: 0,
      chart: { gl_accounts: ['6000', '6100'], vendors: [], fields: [], tax_codes: [] },
    });
  });

  const ready = async (n: number) =>
    (await h.api.get(`/transactions?sync_status=SYNC_READY&page_size=${n}`)).body.data as Array<{
      id: string;
    }>;

  describe('F33: sync answers', () => {
    it('F33: with published_answers (PUT /__stub/config) POST /accounting/syncs answers 201 {sync_id} only', async () => {
      const config = await h.control.put('/config', { published_answers: true });
      expect(config.body.publishedAnswers).toBe(true);
      const [a, b] = await ready(2);
      const body = {
        idempotency_key: nextKey(),
        sync_type: 'TRANSACTION_SYNC',
        successful_syncs: [{ id: a!.id, reference_id: 'JE-1' }],
        failed_syncs: [{ id: b!.id, error: { message: 'period closed' } }],
      };
      const res = await h.api.post('/accounting/syncs', body);
      expect(res.status).toBe(201);
      expect(Object.keys(res.body)).toEqual(['sync_id']);
      // The effect is the same as with the full answer.
      expect((await h.api.get(`/transactions/${a!.id}`)).body.sync_status).toBe('SYNCED');
      const failed = (await h.control.get(`/objects/transactions/${b!.id}`)).body;
      expect(failed.state.failures[0].message).toBe('period closed');
      // An idempotent replay repeats the same body, without a second effect.
      const replay = await h.api.post('/accounting/syncs', body);
      expect(replay.status).toBe(201);
      expect(replay.body).toEqual(res.body);
      const marks = (await h.control.get(`/effects?include=marks&object_id=${a!.id}`)).body.marks;
      expect(marks).toHaveLength(1);
    });

    it('F33: a replay answers what the first call answered, even after the switch changes', async () => {
      const [a] = await ready(2);
      const body = {
        idempotency_key: nextKey(),
        sync_type: 'TRANSACTION_SYNC',
        successful_syncs: [{ id: a!.id, reference_id: 'JE-9' }],
      };
      const first = await h.api.post('/accounting/syncs', body);
      expect(first.body.results).toEqual([{ id: a!.id, status: 'SYNCED' }]);
      await h.control.put('/config', { published_answers: true });
      expect((await h.api.post('/accounting/syncs', body)).body).toEqual(first.body);
    });

    it('F33: startStub({config: {publishedAnswers: true}}) starts in published-answers mode', async () => {
      const other = await harness({ config: { publishedAnswers: true } });
      try {
        expect((await other.control.get('/config')).body.publishedAnswers).toBe(true);
        await other.api.post('/accounting/connection', { remote_provider_name: 'Tryton' });
        await other.control.post('/seed', { seed: 2, transactions: 5 });
        const [t] = (await other.api.get('/transactions?sync_status=SYNC_READY&page_size=2')).body.data;
        const res = await other.api.post('/accounting/syncs', {
          idempotency_key: 'one',
          sync_type: 'TRANSACTION_SYNC',
          successful_syncs: [{ id: t.id, reference_id: 'JE-1' }],
        });
        expect(res.status).toBe(201);
        expect(res.body).toEqual({ sync_id: expect.any(String) });
      } finally {
        await other.stub.close();
      }
    });

    it('F33: BROKERAGE_ORDER_SYNC and WALLET_TRANSFER_SYNC are accepted; every item is REJECTED', async () => {
      const [a] = await ready(2);
      for (const syncType of ['BROKERAGE_ORDER_SYNC', 'WALLET_TRANSFER_SYNC']) {
        const res = await h.api.post('/accounting/syncs', {
          idempotency_key: nextKey(),
          sync_type: syncType,
          successful_syncs: [{ id: a!.id, reference_id: 'X-1' }],
          failed_syncs: [{ id: '9b1d3c0e-0000-4000-8000-000000000001', error: { message: 'no' } }],
        });
        expect(res.status).toBe(201);
        expect(res.body.results.map((r: { status: string }) => r.status)).toEqual(['REJECTED', 'REJECTED']);
      }
      expect((await h.api.get(`/transactions/${a!.id}`)).body.sync_status).toBe('SYNC_READY');
      const unknown = await h.api.post('/accounting/syncs', {
        idempotency_key: nextKey(),
        sync_type: 'CARD_SYNC',
        successful_syncs: [{ id: a!.id, reference_id: 'X-1' }],
      });
      expect(unknown.status).toBe(422);
    });
  });

  describe('F35: codings by platform ids', () => {
    const code = (objectId: string, selections: unknown[]) =>
      h.api.post('/accounting/codings', {
        object_type: 'TRANSACTION',
        object_id: objectId,
        accounting_coding_selections: selections,
      });
    const selectionOf = (object: { accounting_field_selections: Array<{ type: string }> }, type: string) =>
      object.accounting_field_selections.find((s) => s.type === type);

    it('F35: accounting_coding_selections with {field_option_id} codes GL account, vendor, option and tax code', async () => {
      const gl = (await h.api.get('/accounting/accounts')).body.data;
      const vendor = (await h.api.post('/accounting/vendors', { vendors: [{ id: 'V-9', name: 'Acme' }] }))
        .body.vendors[0];
      const field = (
        await h.api.post('/accounting/fields', { id: 'dept', name: 'Dept', input_type: 'SINGLE_CHOICE' })
      ).body;
      const option = (
        await h.api.post('/accounting/field-options', {
          field_id: field.svc_id,
          options: [{ id: 'ENG', value: 'Eng' }],
        })
      ).body.options[0];
      await h.api.post('/accounting/tax/rates', {
        tax_rates: [{ id: 'R-5', name: 'Five', rate: '0.05', accounting_gl_account_id: '6000' }],
      });
      const taxField = (await h.api.post('/accounting/tax/code', { name: 'Tax' })).body;
      const tax = (
        await h.api.post('/accounting/tax/code/options', {
          options: [{ id: 'T-STD', name: 'Std', tax_rate_ids: ['R-5'] }],
        })
      ).body.options[0];
      const [t] = await ready(2);
      const res = await code(t!.id, [
        { field_option_id: gl[1].svc_id },
        { field_id: 'Merchant', field_option_id: vendor.svc_id },
        { field_id: field.svc_id, field_option_id: option.svc_id },
        { field_id: taxField.svc_id, field_option_id: tax.svc_id },
      ]);
      expect(res.status).toBe(200);
      expect(selectionOf(res.body, 'GL_ACCOUNT')).toMatchObject({ external_id: '6100', id: gl[1].svc_id });
      expect(selectionOf(res.body, 'MERCHANT')).toMatchObject({ external_id: 'V-9' });
      expect(selectionOf(res.body, 'TAX_CODE')).toMatchObject({ external_id: 'T-STD' });
      expect(
        res.body.accounting_field_selections.find(
          (s: { category_info: { external_id: string } }) => s.category_info.external_id === 'dept',
        ),
      ).toMatchObject({ external_id: 'ENG' });
      // F31: once the tax code field is deleted its options can no longer be chosen.
      expect((await h.api.del('/accounting/tax/code', {})).status).toBe(204);
      const afterDelete = await code(t!.id, [{ field_option_id: tax.svc_id }]);
      expect(afterDelete.status).toBe(422);
      expect(afterDelete.body.error_v2.message).toContain('tax code field is inactive');
    });

    it('F35: {field_id, free_form_text} names a custom field by svc_id', async () => {
      const field = (
        await h.api.post('/accounting/fields', { id: 'memo2', name: 'Memo', input_type: 'FREE_FORM_TEXT' })
      ).body;
      const [t] = await ready(2);
      const res = await code(t!.id, [{ field_id: field.svc_id, free_form_text: 'Offsite' }]);
      expect(res.status).toBe(200);
      expect(
        res.body.accounting_field_selections.find(
          (s: { category_info: { external_id: string } }) => s.category_info.external_id === 'memo2',
        ),
      ).toMatchObject({ external_id: 'Offsite' });
    });

    it('F35: unknown ids, a mismatched field_id or remote ids are 422 naming the selection', async () => {
      const gl = (await h.api.get('/accounting/accounts')).body.data;
      const [t] = await ready(2);
      const before = (await h.api.get(`/transactions/${t!.id}`)).body.accounting_field_selections;
      const res = await code(t!.id, [
        { field_option_id: gl[0].svc_id },
        { field_option_id: '6100' },
        { field_id: 'Merchant', field_option_id: gl[1].svc_id },
      ]);
      expect(res.status).toBe(422);
      expect(res.body.error_v2.additional_info.fields).toEqual([
        'accounting_coding_selections.1',
        'accounting_coding_selections.2',
      ]);
      // All-or-nothing: the valid first selection was not applied either.
      expect((await h.api.get(`/transactions/${t!.id}`)).body.accounting_field_selections).toEqual(before);
    });

    it('F35: the F18 body still works, and mixing both lists is 422 naming the unknown field', async () => {
      const [t] = await ready(2);
      const f18 = await h.api.post('/accounting/codings', {
        object_type: 'TRANSACTION',
        object_id: t!.id,
        accounting_field_selections: [{ field_external_id: 'Category', field_option_external_id: '6000' }],
      });
      expect(f18.status).toBe(200);
      const both = await h.api.post('/accounting/codings', {
        object_type: 'TRANSACTION',
        object_id: t!.id,
        accounting_field_selections: [{ field_external_id: 'Category', field_option_external_id: '6000' }],
        accounting_coding_selections: [{ field_option_id: 'x' }],
      });
      expect(both.status).toBe(422);
      expect(both.body.error_v2.additional_info.unknown_fields).toEqual(['accounting_field_selections']);
    });
  });

  describe('F31, F32: webhooks', () => {
    const subscribe = async (eventTypes: string[]) => {
      const created = await h.api.post('/webhooks', { endpoint_url: receiver.url, event_types: eventTypes });
      expect(created.status).toBe(201);
      const challenge = await waitFor(() => receiver.deliveries.find((d) => 'challenge' in d.json));
      await h.api.post(`/webhooks/${created.body.id}/verify`, { challenge: challenge.json.challenge });
      receiver.deliveries.length = 0;
      return created.body as { id: string; secret: string };
    };

    it('F32: GET /webhooks answers a bare JSON array of subscriptions, without secrets', async () => {
      expect((await h.api.get('/webhooks')).body).toEqual([]);
      const sub = await subscribe(['bills.paid']);
      const res = await h.api.get('/webhooks');
      expect(res.status).toBe(200);
      expect(Array.isArray(res.body)).toBe(true);
      expect(res.body).toEqual([
        expect.objectContaining({ id: sub.id, status: 'active', event_types: ['bills.paid'] }),
      ]);
      expect(res.body[0].secret).toBeUndefined();
    });

    it('F31: POST /webhooks/mock-webhook-event sends a signed test delivery to active subscriptions of the type', async () => {
      const sub = await subscribe(['transactions.ready_to_sync']);
      const res = await h.api.post('/webhooks/mock-webhook-event', {
        event_type: 'transactions.ready_to_sync',
        object_id: '1f0c0000-0000-4000-8000-00000000abcd',
        object_metadata: { note: 'test' },
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        type: 'transactions.ready_to_sync',
        object: { id: '1f0c0000-0000-4000-8000-00000000abcd', note: 'test' },
      });
      const delivery = await waitFor(() => receiver.deliveries.find((d) => d.json.id === res.body.id));
      expect(delivery.signature).toBe(createHmac('sha256', sub.secret).update(delivery.body).digest('hex'));
      // Another type reaches no one.
      receiver.deliveries.length = 0;
      await h.api.post('/webhooks/mock-webhook-event', { event_type: 'bills.paid' });
      await new Promise((r) => setTimeout(r, 50));
      expect(receiver.deliveries).toEqual([]);
    });

    it('F31: mock-webhook-event refuses an unknown event type (422) and needs the resource read scope (403)', async () => {
      const bad = await h.api.post('/webhooks/mock-webhook-event', { event_type: 'nothing.happened' });
      expect(bad.status).toBe(422);
      expect(bad.body.error_v2.additional_info.fields).toEqual(['event_type']);
      h.api.setToken(await tokenFor(h.stub, 'accounting:read'));
      const denied = await h.api.post('/webhooks/mock-webhook-event', { event_type: 'bills.paid' });
      expect(denied.status).toBe(403);
      expect(denied.body.error_v2.error_code).toBe('DEVELOPER_7100');
    });
  });
});
