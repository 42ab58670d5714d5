import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currencyExponent, toMinorUnits } from '../../../../src/money.ts';
import { Bill, Transaction } from '../../src/schemas/objects.ts';
import { allPages, type Harness, harness, type Json } from './helpers.ts';

/** Ready-object reads (docs/platform.md F4, F16) over a seeded world; the seed route itself. */
describe('stub ready objects and seeded world', () => {
  let h: Harness;
  let seedSummary: Json;
  beforeAll(async () => {
    h = await harness();
    await h.api.post('/accounting/connection', { remote_provider_name: 'Tryton' });
    seedSummary = (
      await h.control.post('/seed', {
        seed: 42,
        transactions: 400,
        reimbursements: 60,
        transfers: 20,
        cashbacks: 20,
        bills: 200,
        entities: 5,
      })
    ).body;
  });
  afterAll(async () => {
    await h.stub.close();
  });

  it('F4: page_size 2..100 (default 20); out of range is 422 DEVELOPER_7001', async () => {
    expect((await h.api.get('/transactions')).body.data).toHaveLength(20);
    expect((await h.api.get('/transactions?page_size=1')).status).toBe(422);
    expect((await h.api.get('/transactions?page_size=101')).status).toBe(422);
    expect((await h.api.get('/transactions?page_size=2')).body.data).toHaveLength(2);
  });

  it('F4: page.next is the full URL with start = id of the last item; following it visits each item once', async () => {
    const first = await h.api.get('/transactions?sync_status=SYNC_READY&page_size=50');
    const next = new URL(first.body.page.next);
    expect(`${next.origin}${next.pathname}`).toBe(`${h.stub.apiUrl}/transactions`);
    expect(next.searchParams.get('start')).toBe(first.body.data.at(-1).id);
    expect(next.searchParams.get('sync_status')).toBe('SYNC_READY');
    const all = await allPages(h.api, '/transactions?sync_status=SYNC_READY&page_size=50');
    expect(new Set(all.map((t) => t.id)).size).toBe(all.length);
    expect(all.length).toBe(seedSummary.ready.transaction);
    expect(all.every((t) => t.sync_status === 'SYNC_READY')).toBe(true);
    const ids = all.map((t) => t.id);
    expect([...ids].sort()).toEqual(ids);
  });

  it("F16: transactions parse with the stub's own schema; statuses cover NOT_SYNC_READY, SYNC_READY, SYNCED", async () => {
    const all = await allPages(h.api, '/transactions?page_size=100');
    expect(all).toHaveLength(400);
    for (const t of all) Transaction.strict().parse(t);
    expect(new Set(all.map((t) => t.sync_status))).toEqual(
      new Set(['NOT_SYNC_READY', 'SYNC_READY', 'SYNCED']),
    );
    // The vendor-creation setting is off: F17 says the field is absent.
    expect(all.some((t) => 'requires_accounting_vendor_creation_to_sync' in t)).toBe(false);
  });

  it('docs/platform.md G1: amounts follow minor-unit rules per currency; split line items sum to the total', async () => {
    const all = await allPages(h.api, '/transactions?page_size=100');
    const currencies = new Set(all.map((t) => t.currency_code));
    expect(currencies.has('JPY') && currencies.has('KWD') && currencies.has('USD')).toBe(true);
    for (const t of all) {
      const minor = toMinorUnits(t.amount, currencyExponent(t.currency_code));
      expect(t.entity_amount.value).toBe(minor);
      expect((String(t.amount).split('.')[1] ?? '').length).toBeLessThanOrEqual(
        currencyExponent(t.currency_code),
      );
      if (t.currency_code === 'JPY') expect(Number.isInteger(t.amount)).toBe(true);
      // docs/platform.md F23: line amounts are CurrencyAmounts in minor units.
      const lines = t.line_items.reduce((sum: number, l: Json) => sum + l.amount.amount, 0);
      expect(lines).toBe(minor);
      const converted = t.line_items.reduce((sum: number, l: Json) => sum + l.converted_amount.amount, 0);
      expect(converted).toBe(t.entity_amount.value);
    }
    expect(all.some((t) => t.line_items.length > 1)).toBe(true);
    const kwd = all.find((t) => t.currency_code === 'KWD' && String(t.amount).split('.')[1]?.length === 3);
    expect(kwd).toBeDefined();
  });

  it('docs/platform.md G3: refunds have negative amounts and point at the refunded transaction', async () => {
    const all = await allPages(h.api, '/transactions?page_size=100');
    const refunds = all.filter((t) => t.amount < 0);
    expect(refunds.length).toBeGreaterThan(0);
    for (const r of refunds) expect(r.original_transaction_id).toEqual(expect.any(String));
  });

  it('seed: some objects are uncoded, some coded to unknown GL ids, some lack an accounting vendor', async () => {
    const all = await allPages(h.api, '/transactions?page_size=100');
    const gls = (t: Json) =>
      [
        ...t.accounting_field_selections,
        ...t.line_items.flatMap((l: Json) => l.accounting_field_selections),
      ].filter((s) => s.type === 'GL_ACCOUNT');
    expect(all.some((t) => gls(t).length === 0)).toBe(true);
    expect(all.some((t) => gls(t).some((s) => s.external_id.startsWith('GL-UNKNOWN')))).toBe(true);
    expect(
      all.some((t) => !t.accounting_field_selections.some((s: { type: string }) => s.type === 'MERCHANT')),
    ).toBe(true);
  });

  it('F16: bills carry minor-unit amounts; sync_ready=true holds exactly the decision-table rows', async () => {
    const ready = await allPages(h.api, '/bills?sync_ready=true&page_size=100');
    for (const b of ready) Bill.strict().parse(b);
    const rows = new Set(ready.map((b) => `${b.sync_status}/${b.status}`));
    expect(rows).toEqual(new Set(['NOT_SYNCED/OPEN', 'NOT_SYNCED/PAID', 'BILL_SYNCED/PAID']));
    const all = await allPages(h.api, '/bills?page_size=100');
    const notReady = all.filter((b) => !ready.some((r) => r.id === b.id));
    for (const b of notReady) {
      const row = `${b.sync_status}/${b.status}`;
      expect(
        row === 'BILL_SYNCED/OPEN' ||
          row === 'BILL_AND_PAYMENT_SYNCED/PAID' ||
          b.enable_accounting_sync === false,
      ).toBe(true);
    }
    const paymentOnly = await allPages(h.api, '/bills?sync_ready=true&sync_status=BILL_SYNCED&page_size=100');
    expect(paymentOnly.length).toBeGreaterThan(0);
    expect(paymentOnly.every((b) => b.status === 'PAID' && b.sync_status === 'BILL_SYNCED')).toBe(true);
    for (const b of all) {
      expect(Number.isInteger(b.amount.amount)).toBe(true);
      const lines = b.line_items.reduce(
        (s: number, l: { amount: { amount: number } }) => s + l.amount.amount,
        0,
      );
      expect(lines).toBe(b.amount.amount);
    }
  });

  it('docs/platform.md G11: bills filter from_created_at (delta by creation only)', async () => {
    const all = await allPages(h.api, '/bills?page_size=100');
    const cut = all[150].created_at;
    const later = await allPages(h.api, `/bills?from_created_at=${encodeURIComponent(cut)}&page_size=100`);
    expect(later).toHaveLength(50);
    expect(later.every((b) => b.created_at >= cut)).toBe(true);
  });

  it('F16: reimbursements, transfers and cashbacks list with sync_status=SYNC_READY', async () => {
    for (const path of ['reimbursements', 'transfers', 'cashbacks']) {
      const ready = await allPages(h.api, `/${path}?sync_status=SYNC_READY&page_size=100`);
      expect(ready.length).toBe(seedSummary.ready[path.slice(0, -1)]);
      expect(ready.every((o) => o.sync_status === 'SYNC_READY')).toBe(true);
    }
  });

  it('fetch by id; unknown id is 404; a cursor that is not an id of the list is 422', async () => {
    const page = await h.api.get('/transactions?page_size=2');
    const one = await h.api.get(`/transactions/${page.body.data[1].id}`);
    expect(one.body).toEqual(page.body.data[1]);
    expect((await h.api.get('/transactions/nope')).status).toBe(404);
    expect((await h.api.get(`/bills/${page.body.data[1].id}`)).status).toBe(404);
    expect((await h.api.get('/transactions?start=garbage')).status).toBe(422);
  });

  it('entity_id filter and entities with payment_accounts and bank_accounts usage_type', async () => {
    const entities = await allPages(h.api, '/entities');
    expect(entities).toHaveLength(5);
    expect(
      entities[0].bank_accounts.some((b: { usage_type: string }) => b.usage_type === 'BILL_PAY_BANK_ACCOUNT'),
    ).toBe(true);
    expect(
      entities
        .at(-1)
        .bank_accounts.some((b: { usage_type: string }) => b.usage_type === 'BILL_PAY_BANK_ACCOUNT'),
    ).toBe(false);
    expect(entities[0].payment_accounts[0]).toMatchObject({
      account_name: expect.any(String),
      currency: 'USD',
    });
    const entityTxns = await allPages(h.api, `/transactions?entity_id=${entities[2].id}&page_size=100`);
    expect(entityTxns.length).toBeGreaterThan(0);
    expect(entityTxns.every((t) => t.entity_id === entities[2].id && t.currency_code === 'JPY')).toBe(true);
  });

  it('seed: the same seed reproduces the same world; another seed gives other ids', async () => {
    const again = await harness();
    try {
      await again.control.post('/seed', {
        seed: 42,
        transactions: 400,
        reimbursements: 60,
        transfers: 20,
        cashbacks: 20,
        bills: 200,
        entities: 5,
      });
      const a = await h.api.get('/transactions?page_size=100');
      const b = await again.api.get('/transactions?page_size=100');
      const strip = (t: Record<string, unknown>) => ({
        ...t,
        accounting_field_selections: undefined,
        line_items: undefined,
      });
      expect(b.body.data.map(strip)).toEqual(a.body.data.map(strip));
      await again.control.post('/seed', { seed: 43, transactions: 10 });
      const c = await again.api.get('/transactions?page_size=2');
      expect(c.body.data[0].id).not.toBe(a.body.data[0].id);
    } finally {
      await again.stub.close();
    }
  });

  it('seed: codings are drawn from the chart given in the seed body', async () => {
    const other = await harness();
    try {
      await other.control.post('/seed', {
        seed: 9,
        transactions: 50,
        bills: 0,
        uncoded_fraction: 0,
        unknown_coding_fraction: 0,
        chart: {
          gl_accounts: ['A-1', 'A-2'],
          fields: [{ id: 'proj', options: ['P1'] }],
          vendors: ['VV'],
          tax_codes: [],
        },
      });
      const all = await allPages(other.api, '/transactions?page_size=100');
      const externals = new Set(
        all
          .flatMap((t) => [
            ...t.accounting_field_selections,
            ...t.line_items.flatMap((l: Json) => l.accounting_field_selections),
          ])
          .map((s) => `${s.type}:${s.external_id}`),
      );
      expect([...externals].sort()).toEqual(['GL_ACCOUNT:A-1', 'GL_ACCOUNT:A-2', 'MERCHANT:VV', 'OTHER:P1']);
    } finally {
      await other.stub.close();
    }
  });

  it('seed: without a chart in the body, codings come from what the active connection holds', async () => {
    const other = await harness();
    try {
      await other.api.post('/accounting/connection', { remote_provider_name: 'Ledger' });
      await other.api.post('/accounting/accounts', {
        gl_accounts: [{ id: 'UP-1', name: 'Uploaded', classification: 'EXPENSE' }],
      });
      await other.control.post('/seed', {
        seed: 5,
        transactions: 30,
        uncoded_fraction: 0,
        unknown_coding_fraction: 0,
      });
      const all = await allPages(other.api, '/transactions?page_size=100');
      const gl = all
        .flatMap((t) => t.line_items.flatMap((l: Json) => l.accounting_field_selections))
        .filter((s) => s.type === 'GL_ACCOUNT');
      expect(new Set(gl.map((s) => s.external_id))).toEqual(new Set(['UP-1']));
      expect(gl[0].name).toBe('Uploaded');
    } finally {
      await other.stub.close();
    }
  });
});
