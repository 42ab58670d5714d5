import { z } from 'zod';
import { DateTimeValue, DateValue, DecimalValue } from './codec.ts';

/**
 * The Tryton rows the adapter reads, as zod schemas: a search_read answer is a boundary. Fields
 * are named as Tryton names them; a Many2One reads as the related id or null.
 */

const id = z.number().int();
const ref = id.nullable();
const text = z.string().nullable();

/**
 * Not `active`: on accounts it is a function field Tryton computes with a fiscal-year search per
 * record (0.5 ms each, 5 s for a 10,000-account chart); the adapter derives it from the dates
 * (active-window.ts).
 */
export const ACCOUNT_FIELDS = [
  'code',
  'name',
  'closed',
  'type',
  'party_required',
  'company',
  'start_date',
  'end_date',
];
export const AccountRow = z.object({
  id,
  code: text,
  name: z.string(),
  closed: z.boolean().nullable(),
  type: ref,
  party_required: z.boolean().nullable(),
  start_date: DateValue.nullable(),
  end_date: DateValue.nullable(),
});
export type AccountRow = z.infer<typeof AccountRow>;

export const TYPE_FIELDS = [
  'name',
  'statement',
  'assets',
  'receivable',
  'payable',
  'revenue',
  'expense',
  'parent',
];
export const TypeRow = z.object({
  id,
  name: z.string(),
  statement: text,
  assets: z.boolean().nullable(),
  receivable: z.boolean().nullable(),
  payable: z.boolean().nullable(),
  revenue: z.boolean().nullable(),
  expense: z.boolean().nullable(),
  parent: ref,
});
export type TypeRow = z.infer<typeof TypeRow>;

export const PARTY_FIELDS = ['name', 'code', 'active', 'addresses'];
export const PartyRow = z.object({
  id,
  name: text,
  code: text,
  active: z.boolean(),
  addresses: z.array(id),
});
export type PartyRow = z.infer<typeof PartyRow>;

export const TAX_FIELDS = ['name', 'type', 'rate', 'invoice_account', 'parent', 'childs', 'active'];
export const TaxRow = z.object({
  id,
  name: z.string(),
  type: z.string(),
  rate: DecimalValue.nullable(),
  invoice_account: ref,
  parent: ref,
  childs: z.array(id),
  active: z.boolean(),
});
export type TaxRow = z.infer<typeof TaxRow>;

export const ANALYTIC_FIELDS = ['name', 'code', 'type', 'state', 'root', 'active'];
export const AnalyticRow = z.object({
  id,
  name: z.string(),
  code: text,
  type: z.string(),
  state: z.string(),
  root: ref,
  active: z.boolean(),
});
export type AnalyticRow = z.infer<typeof AnalyticRow>;

export const PERIOD_FIELDS = ['name', 'start_date', 'end_date', 'state', 'type'];
export const PeriodRow = z.object({
  id,
  name: z.string(),
  start_date: DateValue,
  end_date: DateValue,
  state: z.string(),
  type: z.string(),
});
export type PeriodRow = z.infer<typeof PeriodRow>;

export const INVOICE_FIELDS = [
  'company',
  'description',
  'state',
  'number',
  'party',
  'account',
  'currency',
  'total_amount',
  'amount_to_pay',
  'lines_to_pay',
  'payment_lines',
  'move',
  'create_date',
];
export const InvoiceRow = z.object({
  id,
  company: id,
  description: text,
  state: z.string(),
  number: text,
  party: id,
  account: id,
  currency: id,
  total_amount: DecimalValue,
  amount_to_pay: DecimalValue,
  lines_to_pay: z.array(id),
  payment_lines: z.array(id),
  move: ref,
  create_date: DateTimeValue,
});
export type InvoiceRow = z.infer<typeof InvoiceRow>;

export const MOVE_FIELDS = ['company', 'description', 'state', 'lines', 'create_date'];
export const MoveRow = z.object({
  id,
  company: id,
  description: text,
  state: z.string(),
  lines: z.array(id),
  create_date: DateTimeValue,
});
export type MoveRow = z.infer<typeof MoveRow>;

export const IdentifierRow = z.object({ id, code: z.string(), party: id, create_date: DateTimeValue });
export type IdentifierRow = z.infer<typeof IdentifierRow>;

export const MoveLineRow = z.object({
  id,
  account: id,
  party: ref,
  debit: DecimalValue,
  credit: DecimalValue,
  reconciliation: ref,
});
export type MoveLineRow = z.infer<typeof MoveLineRow>;
