import type { ChartSummary, CodedLine, Counterpart, Currency, ErpWrite } from '../../src/erp/index.ts';
import { seededRandom } from '../../src/erp/index.ts';

/**
 * A reproducible mix of ERP writes coded against a chart summary: card transactions (with
 * refunds, splits and taxes), reimbursements, bills and their payments, transfers, cashbacks and
 * vendor creations, in the proportions a spend platform produces them. For load tests and
 * benchmarks; every object is valid against the chart it was generated from.
 */

export interface MixOptions {
  count: number;
  seed?: number;
  /** Prefix of every object id, so several runs can share one ledger. */
  idPrefix?: string;
  currency?: Currency;
  /** Dates are spread over the 28 days from this date (YYYY-MM-DD). */
  fromDate?: string;
}

type Random = () => number;

function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

function dateIn(random: Random, from: string): string {
  const day = new Date(`${from}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() + Math.floor(random() * 28));
  return day.toISOString().slice(0, 10);
}

function amount(random: Random, min: number, max: number): number {
  return min + Math.floor(random() * (max - min));
}

function codedLines(random: Random, chart: ChartSummary, total: number, withTax: boolean): CodedLine[] {
  const splits = random() < 0.2 ? 2 + Math.floor(random() * 2) : 1;
  const lines: CodedLine[] = [];
  let left = total;
  for (let i = 0; i < splits; i++) {
    const part = i === splits - 1 ? left : Math.trunc(total / splits);
    left -= part;
    const dimensions: Record<string, string> = {};
    for (const field of chart.fields)
      if (field.options.length > 0) dimensions[field.id] = pick(random, field.options);
    const taxCodeId = withTax && chart.tax_codes.length > 0 ? pick(random, chart.tax_codes) : undefined;
    lines.push({
      amountMinor: part,
      glAccountId: pick(random, chart.gl_accounts),
      dimensions,
      memo: `line ${i + 1}`,
      ...(taxCodeId ? { taxCodeId } : {}),
    });
  }
  return lines;
}

interface Header {
  objectId: string;
  date: string;
  entityId: null;
  currency: Currency;
  memo: string;
}

interface MixState {
  random: Random;
  chart: ChartSummary;
  unpaidBills: { objectId: string; total: number; date: string }[];
}

const HOLDER: Counterpart = { role: 'card_holder', id: 'user-1', name: 'Ada Lovelace' };
const EMPLOYEE: Counterpart = { role: 'employee', id: 'user-2', name: 'Grace Hopper' };

function cardTransaction({ random, chart }: MixState, header: Header): ErpWrite {
  const refund = random() < 0.1;
  const total = amount(random, 100, 250_000) * (refund ? -1 : 1);
  const lines = codedLines(random, chart, total, random() < 0.15);
  return { kind: 'card_transaction', ...header, totalMinor: total, counterpart: HOLDER, lines };
}

function reimbursement({ random, chart }: MixState, header: Header): ErpWrite {
  const total = amount(random, 500, 80_000);
  const lines = codedLines(random, chart, total, false);
  return { kind: 'reimbursement', ...header, totalMinor: total, counterpart: EMPLOYEE, lines };
}

function bill(state: MixState, header: Header, n: number): ErpWrite {
  const { random, chart } = state;
  const total = amount(random, 10_000, 2_000_000);
  const vendorId = pick(random, chart.vendors);
  const lines = codedLines(random, chart, total, random() < 0.3);
  state.unpaidBills.push({ objectId: header.objectId, total, date: header.date });
  const counterpart: Counterpart = { role: 'vendor', id: vendorId, name: vendorId };
  return {
    kind: 'bill',
    ...header,
    totalMinor: total,
    counterpart,
    vendorId,
    invoiceNumber: `INV-${n}`,
    dueDate: null,
    lines,
  };
}

/** Pays the oldest unpaid bill in full, never before the bill's own date. */
function billPayment(state: MixState, header: Header): ErpWrite {
  const paid = state.unpaidBills.shift()!;
  // ISO dates order as strings; the later of the two.
  const date = [paid.date, header.date].sort()[1]!;
  return {
    kind: 'bill_payment',
    ...header,
    date,
    totalMinor: paid.total,
    counterpart: null,
    billObjectId: paid.objectId,
  };
}

export function generateMix(chart: ChartSummary, options: MixOptions): ErpWrite[] {
  const state: MixState = { random: seededRandom(options.seed ?? 7), chart, unpaidBills: [] };
  const { random } = state;
  const prefix = options.idPrefix ?? 'mix';
  const currency = options.currency ?? { code: 'USD', exponent: 2 };
  const from = options.fromDate ?? '2025-01-01';
  const out: ErpWrite[] = [];
  for (let n = 0; out.length < options.count; n++) {
    const objectId = `${prefix}-${n}`;
    const header: Header = {
      objectId,
      date: dateIn(random, from),
      entityId: null,
      currency,
      memo: `object ${n}`,
    };
    const roll = random();
    if (roll < 0.55) out.push(cardTransaction(state, header));
    else if (roll < 0.7) out.push(reimbursement(state, header));
    else if (roll < 0.8 || (roll < 0.88 && state.unpaidBills.length === 0)) out.push(bill(state, header, n));
    else if (roll < 0.88) out.push(billPayment(state, header));
    else if (roll < 0.94) {
      out.push({
        kind: 'transfer',
        ...header,
        totalMinor: amount(random, 100_000, 5_000_000),
        counterpart: null,
      });
    } else if (roll < 0.98) {
      out.push({ kind: 'cashback', ...header, totalMinor: amount(random, 100, 50_000), counterpart: null });
    } else out.push({ kind: 'vendor', objectId, name: `New Vendor ${n}` });
  }
  return out;
}
