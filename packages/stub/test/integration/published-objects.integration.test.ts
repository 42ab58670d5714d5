import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { allPages, type Harness, harness, type Json } from './helpers.ts';

/**
 * The ready objects the stub serves have the published fields (docs/platform.md F22–F27) beside
 * the platform guide's (F16), and the object lists honour the published filters (F28). Shapes
 * are checked key by key with plain JSON types, never through a zod schema of this project.
 */

type JsonKind = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'null';

function kindsOf(value: unknown): JsonKind[] {
  if (value === null) return ['null'];
  if (Array.isArray(value)) return ['array'];
  if (typeof value === 'number') return Number.isInteger(value) ? ['integer', 'number'] : ['number'];
  return [typeof value as JsonKind];
}

/** Every key of `spec` is present with one of its JSON kinds (`'string|null'`). */
function shapeProblems(object: Json, spec: Record<string, string>, where = '$'): string[] {
  const problems: string[] = [];
  for (const [key, allowed] of Object.entries(spec)) {
    if (!(key in object)) {
      problems.push(`${where}.${key}: missing`);
      continue;
    }
    const kinds = kindsOf(object[key]);
    if (!allowed.split('|').some((k) => kinds.includes(k as JsonKind))) {
      problems.push(`${where}.${key}: ${kinds[0]} is not ${allowed}`);
    }
  }
  return problems;
}

const CURRENCY_AMOUNT = { amount: 'integer', currency_code: 'string' };
const EXPONENT: Record<string, number> = { USD: 2, EUR: 2, GBP: 2, CAD: 2, JPY: 0, KWD: 3 };

function currencyAmountProblems(value: unknown, where: string): string[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [`${where}: not an object`];
  return shapeProblems(value as Json, CURRENCY_AMOUNT, where);
}

const TRANSFER_STATUSES = [
  'ACH_CONFIRMED',
  'CANCELED',
  'COMPLETED',
  'ERROR',
  'INITIATED',
  'NOT_ACKED',
  'NOT_ENOUGH_FUNDS',
  'PROCESSING_BY_ODFI',
  'REJECTED_BY_ODFI',
  'RETURNED_BY_RDFI',
  'SUBMITTED_TO_FED',
  'SUBMITTED_TO_RDFI',
  'UNNECESSARY',
  'UPLOADED',
];

const selectionsOf = (o: Json): Json[] => [
  ...o.accounting_field_selections,
  ...(o.line_items ?? []).flatMap((l: Json) => l.accounting_field_selections),
];
const ids = (items: Json[]) => items.map((o) => o.id).sort();

describe('stub objects in the published shapes and filters (docs/platform.md F22–F28)', () => {
  let h: Harness;
  let transactions: Json[];
  beforeAll(async () => {
    h = await harness();
    await h.api.post('/accounting/connection', { remote_provider_name: 'Tryton' });
    await h.control.post('/seed', {
      seed: 3,
      transactions: 300,
      reimbursements: 60,
      transfers: 20,
      cashbacks: 20,
      bills: 120,
      entities: 5,
    });
    transactions = await allPages(h.api, '/transactions?page_size=100');
  });
  afterAll(async () => {
    await h.stub.close();
  });

  describe('shapes', () => {
    it('docs/platform.md F23: every transaction carries the published required fields with their JSON types', () => {
      expect(transactions).toHaveLength(300);
      const problems = transactions.flatMap((t, i) =>
        shapeProblems(
          t,
          {
            id: 'string',
            amount: 'number',
            currency_code: 'string',
            accounting_date: 'string|null',
            card_present: 'boolean',
            entity_id: 'string|null',
            merchant_id: 'string|null',
            merchant_location: 'object|null',
            minor_unit_conversion_rate: 'integer|null',
            original_transaction_amount: 'object|null',
            sk_category_id: 'integer|null',
            sk_category_name: 'string|null',
            sync_status: 'string',
            synced_at: 'string|null',
            trip_id: 'string|null',
            trip_name: 'string|null',
            entity_amount: 'object',
            merchant_amount: 'object',
            accounting_field_selections: 'array',
            line_items: 'array',
          },
          `$[${i}]`,
        ),
      );
      expect(problems).toEqual([]);
      for (const t of transactions) {
        expect(t.minor_unit_conversion_rate).toBe(10 ** EXPONENT[t.currency_code]!);
        expect(currencyAmountProblems(t.original_transaction_amount, 'original_transaction_amount')).toEqual(
          [],
        );
        if (t.merchant_location !== null) {
          expect(Object.keys(t.merchant_location).sort()).toEqual([
            'city',
            'country',
            'postal_code',
            'state',
          ]);
        }
        expect(t.sk_category_id).not.toBe(22);
      }
      // The optional forms all occur: card present or not, with or without a trip and a location.
      expect(new Set(transactions.map((t) => t.card_present))).toEqual(new Set([true, false]));
      expect(transactions.some((t) => t.trip_id !== null && typeof t.trip_name === 'string')).toBe(true);
      expect(transactions.some((t) => t.trip_id === null && t.trip_name === null)).toBe(true);
      expect(transactions.some((t) => t.merchant_location === null)).toBe(true);
    });

    it('docs/platform.md F23: line items are {amount, converted_amount} CurrencyAmounts in minor units summing to the total', () => {
      for (const t of transactions) {
        expect(t.line_items.length).toBeGreaterThan(0);
        let sum = 0;
        let converted = 0;
        t.line_items.forEach((line: Json, n: number) => {
          expect(shapeProblems(line, { accounting_field_selections: 'array' })).toEqual([]);
          // docs/platform.md F36: a line's memo is a string or left out, never null.
          if ('memo' in line) expect(typeof line.memo).toBe('string');
          expect(currencyAmountProblems(line.amount, `line ${n} amount`)).toEqual([]);
          expect(currencyAmountProblems(line.converted_amount, `line ${n} converted_amount`)).toEqual([]);
          expect(line.amount.currency_code).toBe(t.currency_code);
          expect(line.converted_amount.currency_code).toBe(t.entity_amount.currency);
          sum += line.amount.amount;
          converted += line.converted_amount.amount;
        });
        expect(sum).toBe(t.entity_amount.value);
        expect(converted).toBe(t.entity_amount.value);
      }
      expect(transactions.some((t) => t.line_items.length > 1)).toBe(true);
    });

    it('docs/platform.md F22: a transaction amount is major units beside currency_code; the other amounts are CurrencyAmounts', async () => {
      for (const t of transactions) {
        // Major units × 10^exponent = the minor units of the settlement amount.
        expect(Math.round(t.amount * t.minor_unit_conversion_rate)).toBe(t.entity_amount.value);
        expect(t.entity_amount.currency).toBe(t.currency_code);
      }
      // Three-decimal currencies keep their fils: 12.345 KWD is 12345 minor units.
      const kwd = transactions.filter((t) => t.currency_code === 'KWD');
      expect(kwd.some((t) => t.entity_amount.value % 10 !== 0 && t.minor_unit_conversion_rate === 1000)).toBe(
        true,
      );
      const transfers = await allPages(h.api, '/transfers?page_size=100');
      const cashbacks = await allPages(h.api, '/cashbacks?page_size=100');
      const bills = await allPages(h.api, '/bills?page_size=100');
      const amounts = [
        ...transfers.map((o) => o.amount),
        ...cashbacks.map((o) => o.amount),
        ...bills.flatMap((b) => [b.amount, ...b.line_items.map((l: Json) => l.amount)]),
      ];
      expect(amounts.flatMap((a, i) => currencyAmountProblems(a, `amount ${i}`))).toEqual([]);
    });

    it('docs/platform.md F16: transaction and reimbursement selections keep a top-level type beside category_info', async () => {
      const reimbursements = await allPages(h.api, '/reimbursements?page_size=100');
      const selections = [...transactions, ...reimbursements].flatMap(selectionsOf);
      expect(selections.length).toBeGreaterThan(0);
      for (const s of selections) {
        expect(['GL_ACCOUNT', 'MERCHANT', 'TAX_CODE', 'OTHER']).toContain(s.type);
        expect(s.category_info.type).toBe(s.type);
      }
    });

    it('docs/platform.md F24: reimbursements have currency (no currency_code), CurrencyAmount lines and every selection key', async () => {
      const reimbursements = await allPages(h.api, '/reimbursements?page_size=100');
      expect(reimbursements).toHaveLength(60);
      const required = {
        accounting_date: 'string|null',
        created_at: 'string',
        currency: 'string',
        direction: 'string',
        distance: 'number|null',
        end_location: 'string|null',
        id: 'string',
        merchant_id: 'string|null',
        original_reimbursement_amount: 'object|null',
        payee_amount: 'object|null',
        payment_id: 'string|null',
        spend_limit_id: 'string|null',
        start_location: 'string|null',
        state: 'string',
        submitted_at: 'string|null',
        sync_status: 'string',
        synced_at: 'string|null',
        type: 'string',
        user_email: 'string',
        user_full_name: 'string',
        user_id: 'string',
        waypoints: 'array',
        amount: 'number',
        line_items: 'array',
        accounting_field_selections: 'array',
      };
      expect(reimbursements.flatMap((r, i) => shapeProblems(r, required, `$[${i}]`))).toEqual([]);
      for (const r of reimbursements) {
        expect('currency_code' in r).toBe(false);
        expect(r.transaction_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        let sum = 0;
        for (const line of r.line_items) {
          if (line.amount === null) continue;
          expect(currencyAmountProblems(line.amount, 'line amount')).toEqual([]);
          expect(line.amount.currency_code).toBe(r.currency);
          sum += line.amount.amount;
        }
        expect(sum).toBe(Math.round(r.amount * 10 ** EXPONENT[r.currency]!));
        for (const s of selectionsOf(r)) {
          expect(Object.keys(s).sort()).toEqual(
            [
              'category_info',
              'external_code',
              'external_id',
              'id',
              'name',
              'provider_name',
              'source',
              'type',
            ].sort(),
          );
        }
      }
      expect(reimbursements.some((r) => r.type === 'MILEAGE' && typeof r.distance === 'number')).toBe(true);
    });

    it('docs/platform.md F25: transfers have a CurrencyAmount amount, no currency_code and a published status', async () => {
      const transfers = await allPages(h.api, '/transfers?page_size=100');
      expect(transfers).toHaveLength(20);
      for (const t of transfers) {
        expect(
          shapeProblems(t, {
            id: 'string',
            amount: 'object',
            entity_id: 'string|null',
            bank_account_id: 'string|null',
            payment_id: 'string',
            status: 'string',
            created_at: 'string',
            sync_status: 'string',
          }),
        ).toEqual([]);
        expect(currencyAmountProblems(t.amount, 'amount')).toEqual([]);
        expect('currency_code' in t).toBe(false);
        expect(TRANSFER_STATUSES).toContain(t.status);
      }
      expect(transfers[0].status).toBe('COMPLETED');
    });

    it('docs/platform.md F25: cashbacks have a CurrencyAmount amount and no currency_code', async () => {
      const cashbacks = await allPages(h.api, '/cashbacks?page_size=100');
      expect(cashbacks).toHaveLength(20);
      for (const c of cashbacks) {
        expect(
          shapeProblems(c, {
            id: 'string',
            amount: 'object',
            entity_id: 'string|null',
            sync_status: 'string',
          }),
        ).toEqual([]);
        expect(currencyAmountProblems(c.amount, 'amount')).toEqual([]);
        expect('currency_code' in c).toBe(false);
      }
    });

    it('docs/platform.md F26: bill and bill-line selections have no top-level type; category_info has it', async () => {
      const bills = await allPages(h.api, '/bills?page_size=100');
      const selections = bills.flatMap(selectionsOf);
      expect(selections.length).toBeGreaterThan(0);
      for (const s of selections) {
        expect('type' in s).toBe(false);
        expect(
          shapeProblems(s, { id: 'string', external_id: 'string', name: 'string', category_info: 'object' }),
        ).toEqual([]);
        expect(['GL_ACCOUNT', 'MERCHANT', 'TAX_CODE', 'OTHER']).toContain(s.category_info.type);
      }
      expect(selections.some((s) => s.category_info.type === 'MERCHANT')).toBe(true);
    });

    it('docs/platform.md F26: a bill vendor carries remote_id, the ERP vendor id (also as accounting_vendor_remote_id)', async () => {
      const bills = await allPages(h.api, '/bills?page_size=100');
      const linked = bills.filter((b) => b.vendor?.accounting_vendor_remote_id);
      expect(linked.length).toBeGreaterThan(0);
      for (const b of bills) {
        expect(shapeProblems(b.vendor, { id: 'string', name: 'string' })).toEqual([]);
        // docs/platform.md F36: an unlinked vendor leaves remote_id out rather than sending null.
        if ('remote_id' in b.vendor) expect(typeof b.vendor.remote_id).toBe('string');
        expect(b.vendor.remote_id).toBe(b.vendor.accounting_vendor_remote_id);
      }
      // The vendor's remote id is the external id of the bill's MERCHANT selection.
      for (const b of linked) {
        const merchant = b.accounting_field_selections.find((s: Json) => s.category_info.type === 'MERCHANT');
        expect(merchant.external_id).toBe(b.vendor.remote_id);
      }
    });

    it('docs/platform.md F26, F38: a paid bill has a payment with amount, payment_date, payment_method, effective_date and the key id', async () => {
      const bills = await allPages(h.api, '/bills?page_size=100');
      const required = {
        accounting_date: 'string',
        accounting_field_selections: 'array',
        amount: 'object',
        approval_status: 'string|null',
        archived_at: 'string|null',
        bill_owner: 'object',
        created_at: 'string',
        due_at: 'string',
        entity_id: 'string|null',
        fx_conversion_rate: 'string',
        id: 'string',
        inventory_line_items: 'array',
        invoice_urls: 'array',
        issued_at: 'string',
        line_items: 'array',
        payment: 'object|null',
        status: 'string',
        sync_status: 'string',
        vendor: 'object',
        vendor_contact_id: 'string|null',
      };
      expect(bills.flatMap((b, i) => shapeProblems(b, required, `$[${i}]`))).toEqual([]);
      const paid = bills.filter((b) => b.status === 'PAID');
      expect(paid.length).toBeGreaterThan(0);
      for (const b of paid) {
        expect(
          shapeProblems(b.payment, {
            amount: 'object',
            payment_date: 'string|null',
            payment_method: 'string|null',
            effective_date: 'string|null',
          }),
        ).toEqual([]);
        // F38: the 2026 copy requires the key; the stub has no payment id and sends null.
        expect('id' in b.payment).toBe(true);
        expect(b.payment.id).toBeNull();
        expect(b.payment.amount).toEqual(b.amount);
      }
      expect(bills.filter((b) => b.status === 'OPEN').every((b) => b.payment === null)).toBe(true);
    });

    it('docs/platform.md F27: entities carry the published set and the platform guide set', async () => {
      const entities = await allPages(h.api, '/entities?page_size=100');
      expect(entities).toHaveLength(5);
      for (const e of entities) {
        expect(
          shapeProblems(e, {
            id: 'string',
            entity_name: 'string',
            name: 'string',
            currency: 'string',
            is_primary: 'boolean',
            accounts: 'array',
            location_ids: 'array',
            payment_accounts: 'array',
            bank_accounts: 'array',
          }),
        ).toEqual([]);
        expect(e.entity_name).toBe(e.name);
        for (const a of e.accounts)
          expect(shapeProblems(a, { internal_id: 'string', usage_type: 'string' })).toEqual([]);
        for (const b of e.bank_accounts) expect(typeof b.usage_type).toBe('string');
        // Each published account points at the guide's bank account of the same purpose.
        const billPay = e.bank_accounts.find((b: Json) => b.usage_type === 'BILL_PAY_BANK_ACCOUNT');
        const published = e.accounts.find((a: Json) => a.usage_type === 'BILL_PAY_BANK_ACCOUNT');
        expect(published?.bank_account_id ?? null).toBe(billPay?.id ?? null);
      }
      expect(entities.filter((e) => e.is_primary)).toHaveLength(1);
      expect(entities.at(-1)!.accounts.some((a: Json) => a.usage_type === 'BILL_PAY_BANK_ACCOUNT')).toBe(
        false,
      );
    });

    it('the OpenAPI document describes the stub objects (docs/platform.md F23) and filters (F28)', async () => {
      const doc = (await (await fetch(`${h.stub.url}/openapi.json`)).json()) as Json;
      const list = doc.paths['/transactions'].get;
      const params = list.parameters.map((p: Json) => p.name);
      for (const name of [
        'has_no_sync_commits',
        'has_no_sync_commit',
        'sync_ready',
        'state',
        'approval_status',
      ]) {
        expect(params).toContain(name);
      }
      const item = doc.paths['/transactions/{id}'].get.responses['200'].content['application/json'].schema;
      for (const key of [
        'minor_unit_conversion_rate',
        'original_transaction_amount',
        'card_present',
        'trip_id',
      ]) {
        expect(item.properties).toHaveProperty(key);
      }
      const bill = doc.paths['/bills/{id}'].get.responses['200'].content['application/json'].schema;
      const billParams = doc.paths['/bills'].get.parameters.map((p: Json) => p.name);
      expect(billParams).toEqual(
        expect.arrayContaining(['payment_status', 'approval_status', 'status_summary']),
      );
      expect(bill.properties.vendor).toBeDefined();
    });
  });

  describe('filters', () => {
    const list = (query: string) => allPages(h.api, `/transactions?page_size=100&${query}`);
    const where = (p: (t: Json) => boolean) => ids(transactions.filter(p));

    it('docs/platform.md F28: has_no_sync_commits lists the transactions never synced; the singular spelling works too', async () => {
      const never = await list('has_no_sync_commits=true');
      expect(ids(never)).toEqual(where((t) => t.sync_status !== 'SYNCED'));
      expect(ids(await list('has_no_sync_commit=true'))).toEqual(ids(never));
      const synced = await list('has_no_sync_commits=false');
      expect(synced.length).toBeGreaterThan(0);
      expect(ids(synced)).toEqual(where((t) => t.sync_status === 'SYNCED'));
    });

    it('docs/platform.md F28: sync_ready=true lists the SYNC_READY transactions and false the others', async () => {
      expect(ids(await list('sync_ready=true'))).toEqual(where((t) => t.sync_status === 'SYNC_READY'));
      expect(ids(await list('sync_ready=false'))).toEqual(where((t) => t.sync_status !== 'SYNC_READY'));
    });

    it('docs/platform.md F28: sync_status supersedes sync_ready when both are given', async () => {
      const both = await list('sync_status=SYNCED&sync_ready=true');
      expect(both.length).toBeGreaterThan(0);
      expect(ids(both)).toEqual(where((t) => t.sync_status === 'SYNCED'));
    });

    it('docs/platform.md F28: sync_status supersedes has_no_sync_commits when both are given', async () => {
      const both = await list('sync_status=SYNCED&has_no_sync_commits=true');
      expect(ids(both)).toEqual(where((t) => t.sync_status === 'SYNCED'));
      const singular = await list('sync_status=NOT_SYNC_READY&has_no_sync_commit=false');
      expect(ids(singular)).toEqual(where((t) => t.sync_status === 'NOT_SYNC_READY'));
    });

    it('docs/platform.md F28: state filters transactions (all generated ones are CLEARED; ALL lists every one)', async () => {
      expect(transactions.every((t) => t.state === 'CLEARED')).toBe(true);
      expect(await list('state=CLEARED')).toHaveLength(300);
      expect(await list('state=ALL')).toHaveLength(300);
      const pending = await h.api.get('/transactions?state=PENDING');
      expect(pending.body).toEqual({ data: [], page: { next: null } });
      expect((await h.api.get('/transactions?state=SETTLED')).status).toBe(422);
    });

    it('docs/platform.md F28: approval_status FULLY_APPROVED lists ready and synced transactions, AWAITING_REVIEWER the rest', async () => {
      const approved = await list('approval_status=FULLY_APPROVED');
      expect(ids(approved)).toEqual(where((t) => t.sync_status !== 'NOT_SYNC_READY'));
      expect(approved.every((t) => t.all_requirements_met_and_approved === true)).toBe(true);
      const waiting = await list('approval_status=AWAITING_REVIEWER');
      expect(ids(waiting)).toEqual(where((t) => t.sync_status === 'NOT_SYNC_READY'));
      expect(waiting.every((t) => t.all_requirements_met_and_approved === false)).toBe(true);
      expect(await list('approval_status=AWAITING_EMPLOYEE')).toEqual([]);
    });

    it('docs/platform.md F28: entity_id, from_date/to_date and synced_after filter transactions', async () => {
      const entity = transactions[0]!.entity_id;
      expect(ids(await list(`entity_id=${entity}`))).toEqual(where((t) => t.entity_id === entity));
      const from = transactions[50]!.user_transaction_time;
      const to = transactions[120]!.user_transaction_time;
      const window = await list(`from_date=${encodeURIComponent(from)}&to_date=${encodeURIComponent(to)}`);
      expect(ids(window)).toEqual(
        where((t) => t.user_transaction_time >= from && t.user_transaction_time <= to),
      );
      expect(window).toHaveLength(71);
      const syncedTimes = transactions
        .filter((t) => t.synced_at)
        .map((t) => t.synced_at)
        .sort();
      const cut = syncedTimes[Math.floor(syncedTimes.length / 2)];
      const after = await list(`synced_after=${encodeURIComponent(cut)}`);
      expect(after.length).toBeGreaterThan(0);
      expect(ids(after)).toEqual(where((t) => t.synced_at !== null && t.synced_at > cut));
    });

    it('docs/platform.md F28: reimbursements and cashbacks honour sync_ready and has_no_sync_commits', async () => {
      for (const path of ['reimbursements', 'cashbacks']) {
        const all = await allPages(h.api, `/${path}?page_size=100`);
        const pick = (p: (o: Json) => boolean) => ids(all.filter(p));
        const get = (q: string) => allPages(h.api, `/${path}?page_size=100&${q}`);
        expect(ids(await get('sync_ready=true'))).toEqual(pick((o) => o.sync_status === 'SYNC_READY'));
        expect(ids(await get('sync_ready=false'))).toEqual(pick((o) => o.sync_status !== 'SYNC_READY'));
        expect(ids(await get('has_no_sync_commits=true'))).toEqual(pick((o) => o.sync_status !== 'SYNCED'));
        expect(ids(await get('has_no_sync_commits=false'))).toEqual(pick((o) => o.sync_status === 'SYNCED'));
        expect(ids(await get('sync_status=SYNCED&sync_ready=true'))).toEqual(
          pick((o) => o.sync_status === 'SYNCED'),
        );
      }
    });

    it('docs/platform.md F28: bills filter by payment_status, approval_status and status_summary', async () => {
      const bills = await allPages(h.api, '/bills?page_size=100');
      const get = (q: string) => allPages(h.api, `/bills?page_size=100&${q}`);
      const paid = await get('payment_status=PAID');
      expect(paid.length).toBeGreaterThan(0);
      expect(ids(paid)).toEqual(ids(bills.filter((b) => b.payment_status === 'PAID')));
      expect(ids(await get('payment_status=OPEN'))).toEqual(
        ids(bills.filter((b) => b.payment_status === 'OPEN')),
      );
      expect(await get('approval_status=APPROVED')).toHaveLength(bills.length);
      expect(await get('approval_status=PENDING')).toEqual([]);
      expect(ids(await get('status_summary=PAYMENT_COMPLETED'))).toEqual(ids(paid));
      expect(ids(await get('status_summary=PAYMENT_SCHEDULED'))).toEqual(
        ids(bills.filter((b) => b.status_summary === 'PAYMENT_SCHEDULED')),
      );
      // The platform guide's payment-only candidates: sync_status and sync_ready combine on bills.
      const paymentOnly = await get('sync_ready=true&sync_status=BILL_SYNCED&payment_status=PAID');
      expect(paymentOnly.length).toBeGreaterThan(0);
      expect(paymentOnly.every((b) => b.sync_status === 'BILL_SYNCED' && b.status === 'PAID')).toBe(true);
    });

    it('docs/platform.md F28: unknown query parameters are ignored; a malformed flag is 422 DEVELOPER_7001', async () => {
      const page = await h.api.get('/transactions?page_size=100&colour=red&has_no_sync_commits=TRUE');
      expect(page.status).toBe(200);
      expect(ids(page.body.data)).toEqual(
        where((t) => t.sync_status !== 'SYNCED').slice(0, page.body.data.length),
      );
      const bad = await h.api.get('/transactions?sync_ready=maybe');
      expect(bad.status).toBe(422);
      expect(bad.body.error_v2.error_code).toBe('DEVELOPER_7001');
    });

    it("docs/platform.md F28: bills filter by remote_id, the reference_id of the bill's BILL_SYNC", async () => {
      const [bill] = await allPages(h.api, '/bills?sync_ready=true&sync_status=NOT_SYNCED&page_size=100');
      expect(bill.remote_id).toBeNull();
      expect(await allPages(h.api, '/bills?remote_id=ERP-BILL-77')).toEqual([]);
      const sync = await h.api.post('/accounting/syncs', {
        idempotency_key: 'f28-remote-id',
        sync_type: 'BILL_SYNC',
        successful_syncs: [{ id: bill.id, reference_id: 'ERP-BILL-77' }],
      });
      expect(sync.status).toBe(201);
      const found = await allPages(h.api, '/bills?remote_id=ERP-BILL-77');
      expect(found.map((b) => b.id)).toEqual([bill.id]);
      expect(found[0].remote_id).toBe('ERP-BILL-77');
    });
  });

  it('docs/platform.md F28: filters stay cheap at 1,000,000 transactions', async () => {
    const big = await harness();
    try {
      await big.control.post('/seed', { seed: 5, transactions: 1_000_000, bills: 0, reimbursements: 0 });
      // What a page costs: the objects it generates and the stored states its filters read.
      const generated = vi.spyOn(big.stub.state, 'objectJson');
      const statusReads = vi.spyOn(big.stub.state.world.stores.transaction, 'statusOf');
      for (const query of [
        'has_no_sync_commits=false',
        'sync_ready=true&has_no_sync_commits=true',
        'approval_status=AWAITING_REVIEWER',
        'state=DECLINED',
      ]) {
        generated.mockClear();
        statusReads.mockClear();
        const page = await big.api.get(`/transactions?page_size=100&${query}`);
        expect(page.status).toBe(200);
        if (query === 'state=DECLINED') expect(page.body).toEqual({ data: [], page: { next: null } });
        else expect(page.body.data).toHaveLength(100);
        // Only the objects the page returns are generated: filters read stored state.
        expect(generated, query).toHaveBeenCalledTimes(page.body.data.length);
        // A filtered page seeks from its cursor: it reads a few hundred states, not the world's.
        expect(statusReads.mock.calls.length, query).toBeLessThan(10_000);
      }
    } finally {
      vi.restoreAllMocks();
      await big.stub.close();
    }
  });
});
