import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  BillInput,
  BillPaymentInput,
  CardTransactionInput,
  CashbackInput,
  ReimbursementInput,
  TransferInput,
} from '../../../../src/erp/index.ts';
import { parseItems } from '../../../../src/platform/parse.ts';
import { chartOfAccountsResource } from '../../../../src/platform/resources/chart-of-accounts.ts';
import { syncsResource } from '../../../../src/platform/resources/syncs.ts';
import {
  AccountingConnection,
  AccountingVendor,
  Field,
  FieldOption,
  GlAccount,
  TaxCode,
  TaxCodeOption,
  TaxRate,
} from '../../../../src/platform/schemas/accounting.ts';
import { Entity } from '../../../../src/platform/schemas/entities.ts';
import {
  Bill,
  Cashback,
  Reimbursement,
  Transaction,
  Transfer,
} from '../../../../src/platform/schemas/objects.ts';
import { WebhookSubscription } from '../../../../src/platform/schemas/webhooks.ts';
import { billSteps } from '../../../../src/sync/bill-decision.ts';
import {
  mapBill,
  mapBillPayment,
  mapCashback,
  mapReimbursement,
  mapTransaction,
  mapTransfer,
} from '../../../../src/sync/map/index.ts';

/**
 * The client reads answers shaped as the published platform sends them (test/fixtures/platform,
 * written from the published shapes, never from the client's schemas): docs/platform.md F22–F35.
 */

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../../../fixtures/platform/${name}`, import.meta.url), 'utf8'));

function pageOf<T>(schema: z.ZodType<T>, name: string): T[] {
  const body = fixture(name) as { data: unknown[] };
  const results = parseItems(schema, body.data, name);
  for (const result of results) expect(result.ok ? 'ok' : result.error).toBe('ok');
  return results.flatMap((r) => (r.ok ? [r.value] : []));
}

function listOf<T>(schema: z.ZodType<T>, name: string, key: string): T[] {
  const body = fixture(name) as Record<string, unknown[]>;
  const results = parseItems(schema, body[key]!, name);
  for (const result of results) expect(result.ok ? 'ok' : result.error).toBe('ok');
  return results.flatMap((r) => (r.ok ? [r.value] : []));
}

describe('ready objects in their live shapes (docs/platform.md F22–F26)', () => {
  const transactions = pageOf(Transaction, 'transactions-page.json');

  it('F23: every published transaction parses, with its many fields the worker never uses', () => {
    expect(transactions).toHaveLength(3);
  });

  it('F22 form 1: a major-unit amount beside currency_code maps to minor units', () => {
    const input = mapTransaction(transactions[0]!);
    expect(input).toMatchObject({ currency: { code: 'USD', exponent: 2 }, totalMinor: 8640 });
    expect(CardTransactionInput.safeParse(input).success).toBe(true);
  });

  it('F23: line items with CurrencyAmount amounts keep their own amounts, summing to the total', () => {
    const split = transactions[1]!;
    const lines = split.line_items;
    expect(lines).toHaveLength(2);
    // The body carries only the vendor; each line is coded on its own (or is a bookkeeper's fix).
    const coded = lines.every((l) => l.accounting_field_selections.some((s) => s.type === 'GL_ACCOUNT'));
    if (coded) {
      const input = mapTransaction(split);
      expect(input.totalMinor).toBe(125000);
      expect(input.lines.map((l) => l.amountMinor)).toEqual([80000, 45000]);
    } else {
      expect(() => mapTransaction(split)).toThrow(/GL account/);
    }
  });

  it('F22 form 3: a JPY transaction with {currency, value} amounts counts yen, never cents', () => {
    const jpy = transactions[2]!;
    expect(jpy.entity_amount).toEqual(expect.objectContaining({ currency: 'JPY', value: 15800 }));
    const input = mapTransaction(jpy);
    expect(input).toMatchObject({ currency: { code: 'JPY', exponent: 0 }, totalMinor: 15800 });
    expect(input.lines[0]).toMatchObject({ taxCodeId: 'TC-RC-JP' });
    expect(CardTransactionInput.safeParse(input).success).toBe(true);
  });

  it('F22: a transaction whose total is only a {currency, value} entity amount still maps', () => {
    const { amount: _amount, currency_code: _code, ...rest } = transactions[2]!;
    expect(mapTransaction({ ...rest }).totalMinor).toBe(15800);
  });

  it('F24: reimbursements name their currency `currency`; a null line amount gets the total', () => {
    const reimbursements = pageOf(Reimbursement, 'reimbursements-page.json');
    expect(reimbursements).toHaveLength(2);
    for (const r of reimbursements) {
      expect(r.currency).toBe('USD');
      expect(r.currency_code ?? null).toBeNull();
    }
    const withNullLine = reimbursements[1]!;
    expect(withNullLine.line_items[0]!.amount ?? null).toBeNull();
    // A line whose amount is null takes the whole total (one line), so it still balances.
    const glLine = {
      ...withNullLine,
      accounting_field_selections: [
        { id: 's', external_id: '87', name: 'Meals', type: 'GL_ACCOUNT', category_info: null },
      ],
    };
    const input = mapReimbursement(glLine);
    expect(input).toMatchObject({ currency: { code: 'USD' }, totalMinor: 2940 });
    expect(input.lines.map((l) => l.amountMinor)).toEqual([2940]);
    expect(ReimbursementInput.safeParse(input).success).toBe(true);
  });

  it('F24: NON_ERP and UNIT_OF_MEASURE selections and all-null keys are read, never ERP dimensions', () => {
    const [first] = pageOf(Reimbursement, 'reimbursements-page.json');
    const selections = [
      ...first!.accounting_field_selections,
      ...first!.line_items.flatMap((l) => l.accounting_field_selections),
    ];
    const types = selections.map((s) => s.type ?? s.category_info?.type);
    expect(types).toEqual(expect.arrayContaining(['NON_ERP']));
    const withGl = {
      ...first!,
      accounting_field_selections: [
        ...first!.accounting_field_selections,
        { id: 's', external_id: '87', name: 'Meals', type: 'GL_ACCOUNT', category_info: null },
      ],
    };
    const input = mapReimbursement(withGl);
    for (const line of input.lines) {
      for (const type of ['NON_ERP', 'UNIT_OF_MEASURE']) {
        const platformOnly = selections.find((s) => (s.type ?? s.category_info?.type) === type);
        if (platformOnly?.category_info?.external_id)
          expect(line.dimensions[platformOnly.category_info.external_id]).toBeUndefined();
      }
    }
  });

  it('F25: transfers carry a CurrencyAmount and no top-level currency', () => {
    const transfers = pageOf(Transfer, 'transfers-page.json');
    expect(transfers.map((t) => mapTransfer(t).totalMinor)).toEqual([2500000, 1840000]);
    for (const t of transfers) expect(TransferInput.safeParse(mapTransfer(t)).success).toBe(true);
  });

  it('F25: cashbacks carry a CurrencyAmount and no top-level currency', () => {
    const cashbacks = pageOf(Cashback, 'cashbacks-page.json');
    expect(cashbacks).toHaveLength(2);
    for (const c of cashbacks) {
      const input = mapCashback(c);
      expect(input.currency.code).toMatch(/^[A-Z]{3}$/);
      expect(CashbackInput.safeParse(input).success).toBe(true);
    }
  });

  it('F26: bills whose selections carry the type only in category_info, vendor.remote_id, payment without id', () => {
    const [open, paid] = pageOf(Bill, 'bills-page.json');
    expect(billSteps(open!)).toEqual(['BILL_SYNC']);
    expect(billSteps(paid!)).toEqual(['BILL_PAYMENT_SYNC']);
    const input = mapBill(open!);
    expect(input).toMatchObject({ vendorId: '412', totalMinor: 248000, currency: { code: 'USD' } });
    expect(input.lines.map((l) => l.amountMinor)).toEqual([180000, 68000]);
    expect(BillInput.safeParse(input).success).toBe(true);
    const payment = mapBillPayment(paid!);
    expect(payment).toMatchObject({ totalMinor: 131550, date: '2026-02-19', billObjectId: paid!.id });
    expect(BillPaymentInput.safeParse(payment).success).toBe(true);
  });

  it('F26: a bill vendor known only by vendor.remote_id is the accounting vendor', () => {
    const [open] = pageOf(Bill, 'bills-page.json');
    expect(mapBill({ ...open!, accounting_field_selections: [] }).vendorId).toBe('412');
  });
});

describe('entities in both shapes (docs/platform.md F27)', () => {
  it('F27: the published shape (entity_name, accounts[])', () => {
    const entities = pageOf(Entity, 'entities-published-page.json');
    expect(entities.length).toBeGreaterThan(0);
    for (const e of entities) {
      expect(e.name).not.toBe(e.id);
      expect(e.currency).toMatch(/^[A-Z]{3}$/);
    }
    expect(entities.some((e) => e.accounts.length > 0)).toBe(true);
  });

  it("F27: the guide's shape (name, payment_accounts[], bank_accounts[])", () => {
    const entities = pageOf(Entity, 'entities-spec-page.json');
    expect(entities.length).toBeGreaterThan(0);
    for (const e of entities) expect(e.name).not.toBe(e.id);
    expect(entities.some((e) => e.accounts.some((a) => a.usage_type === 'BILL_PAY_BANK_ACCOUNT'))).toBe(true);
  });
});

describe('chart answers (docs/platform.md F8–F13, F22)', () => {
  it('F8: GL account upload answer', () => {
    expect(listOf(GlAccount, 'gl-accounts-upload.json', 'gl_accounts').length).toBeGreaterThan(0);
  });
  it('F9: field create answer', () => {
    expect(Field.safeParse(fixture('field-create.json')).success).toBe(true);
  });
  it('F10: field options upload answer', () => {
    expect(listOf(FieldOption, 'field-options-upload.json', 'options').length).toBeGreaterThan(0);
  });
  it('F11: accounting vendors upload answer (no top-level connection id)', () => {
    expect(listOf(AccountingVendor, 'vendors-upload.json', 'vendors').length).toBeGreaterThan(0);
  });
  it('F13, F22: tax rates without is_active are read as active, rates as decimal text', () => {
    const rates = listOf(TaxRate, 'tax-rates-upload.json', 'tax_rates');
    expect(rates.length).toBeGreaterThan(0);
    for (const r of rates) {
      expect(r.is_active).toBe(true);
      expect(r.rate).toMatch(/^-?\d+(\.\d+)?$/);
    }
  });
  it('F13, F31: the tax code field without is_active, and its options', () => {
    const code = TaxCode.parse(fixture('tax-code.json'));
    expect(code.is_active).toBe(true);
    expect(listOf(TaxCodeOption, 'tax-code-options-upload.json', 'options').length).toBeGreaterThan(0);
  });
});

describe('connection, webhooks and sync answers', () => {
  it('F6: a connection, and all connections with a CSV one whose settings are null', () => {
    expect(AccountingConnection.parse(fixture('connection.json')).is_active).toBe(true);
    const all = listOf(AccountingConnection, 'all-connections.json', 'connections');
    expect(all.find((c) => c.connection_type === 'CSV')?.settings.transaction_sync_button_enabled).toBe(
      false,
    );
  });

  it('F32: GET /webhooks is a bare array; F20: the create answer', () => {
    const list = fixture('webhooks-list.json');
    expect(Array.isArray(list)).toBe(true);
    for (const item of parseItems(WebhookSubscription, list as unknown[], 'webhook'))
      expect(item.ok).toBe(true);
    expect(WebhookSubscription.safeParse(fixture('webhook-create.json')).success).toBe(true);
  });
});

describe('sync answers (docs/platform.md F14, F33)', () => {
  const body = {
    idempotency_key: 'k-1',
    sync_type: 'TRANSACTION_SYNC' as const,
    successful_syncs: [{ id: 'df633d87-2758-42ca-8e8e-78e2bee56b2b', reference_id: 'JE-1' }],
  };
  const answering = (answer: unknown) =>
    syncsResource({
      send: async () => ({ status: 201, body: answer, traceId: null, headers: {} }) as never,
      sendIdempotent: async () => ({ alreadyApplied: false, body: answer, traceId: 't' }),
    });

  it('F33: the published 201 {sync_id} alone is acknowledged, with no per-item results', async () => {
    const outcome = await answering(fixture('sync-answer-published.json')).postResults(body);
    expect(outcome.alreadyApplied).toBe(false);
    expect(outcome.answer).toMatchObject({ itemResults: false, results: [] });
    expect(outcome.answer?.sync_id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('F14: per-item results are used when present', async () => {
    const outcome = await answering(fixture('sync-answer-results.json')).postResults(body);
    expect(outcome.answer?.itemResults).toBe(true);
    const statuses = outcome.answer!.results.map((r) => (r.ok ? r.value.status : 'unreadable'));
    expect(statuses).toEqual(expect.arrayContaining(['SYNCED', 'REJECTED']));
  });

  it('F33: a 2xx of any other shape is still acknowledged (never resent under the same key)', async () => {
    for (const odd of [null, 'created', { id: 42 }, { sync_id: 7, results: 'none' }]) {
      const outcome = await answering(odd).postResults(body);
      expect(outcome.answer).toMatchObject({ sync_id: null, results: [], itemResults: false });
    }
  });
});

describe('one-item writes carry the target in a JSON body (docs/platform.md F29)', () => {
  const capture = () => {
    const sent: { method: string; path: string; body?: unknown; query?: unknown }[] = [];
    const chart = chartOfAccountsResource({
      send: async (request) => {
        sent.push(request);
        return { status: 200, body: { id: 'a', svc_id: 's', name: 'n', value: 'v' }, traceId: null } as never;
      },
      sendIdempotent: async () => ({ alreadyApplied: false, body: null, traceId: null }),
    });
    return { sent, chart };
  };
  const target = { accounting_connection_id: 'conn-2' };

  it('F29: DELETE sends {accounting_connection_id} as JSON, never in the query; {} without a target', async () => {
    const { sent, chart } = capture();
    await chart.deleteGlAccount('s-1', target);
    await chart.deleteFieldOption('s-2');
    await chart.deleteTaxRate('s-3', target);
    expect(sent.map((r) => [r.method, r.body, r.query])).toEqual([
      ['DELETE', target, undefined],
      ['DELETE', {}, undefined],
      ['DELETE', target, undefined],
    ]);
  });

  it('F29: PATCH and PUT carry the target in the body beside the change', async () => {
    const { sent, chart } = capture();
    await chart.patchGlAccount('s-1', { name: 'Travel' }, target);
    await chart.putFieldOption('s-2', { value: 'Ops' }, target);
    expect(sent.map((r) => [r.method, r.body, r.query])).toEqual([
      ['PATCH', { name: 'Travel', ...target }, undefined],
      ['PUT', { value: 'Ops', ...target }, undefined],
    ]);
  });
});
