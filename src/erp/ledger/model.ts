import type { FieldInputType, GlClassification } from '../chart.ts';
import type { Counterpart, Currency, ObjectKind } from '../types.ts';

/**
 * The ledger's in-memory view of what one batch of writes refers to (loaded by context.ts),
 * and the journal it plans (rules.ts). Pure data: the checks and rules never touch the database.
 */

export const DEFAULT_ROLES = [
  'card_liability',
  'employee_payable',
  'accounts_payable',
  'bank',
  'cashback_income',
] as const;
export type DefaultRole = (typeof DEFAULT_ROLES)[number];

export interface AccountRow {
  id: string;
  code: string;
  name: string;
  classification: GlClassification;
  active: boolean;
}

export interface VendorRow {
  id: string;
  name: string;
  code: string;
  active: boolean;
}

export interface FieldRow {
  id: string;
  name: string;
  inputType: FieldInputType;
  active: boolean;
  requiredFor: string[];
}

export interface OptionRow {
  fieldId: string;
  id: string;
  value: string;
  active: boolean;
}

export interface TaxRateRow {
  id: string;
  name: string;
  /** Decimal string as stored, e.g. "0.050000" or "-0.200000". */
  rate: string;
  accountId: string;
}

export interface TaxCodeRow {
  id: string;
  name: string;
  active: boolean;
  rates: TaxRateRow[];
}

export interface EntityRow {
  id: string;
  name: string;
  currency: Currency;
  isDefault: boolean;
}

export interface ClosedPeriod {
  start: string;
  end: string;
}

/** A bill already in the ledger, keyed by its platform object id; `paid` grows as we plan. */
export interface BillRow {
  postingId: string;
  objectId: string;
  referenceId: string;
  vendorId: string;
  currency: string;
  total: number;
  paid: number;
}

export interface PostingContext {
  accounts: Map<string, AccountRow>;
  vendors: Map<string, VendorRow>;
  fields: Map<string, FieldRow>;
  /** Keyed by optionKey(fieldId, optionId). */
  options: Map<string, OptionRow>;
  taxCodes: Map<string, TaxCodeRow>;
  entities: Map<string, EntityRow>;
  closedPeriods: ClosedPeriod[];
  defaults: Partial<Record<DefaultRole, string>>;
  bills: Map<string, BillRow>;
}

export function optionKey(fieldId: string, optionId: string): string {
  return `${fieldId}\u0000${optionId}`;
}

export interface PlannedLine {
  accountId: string;
  /** Signed minor units: debit > 0, credit < 0. Never 0. */
  amount: number;
  vendorId: string | null;
  taxCodeId: string | null;
  taxRateId: string | null;
  dimensions: Record<string, string>;
  memo: string;
}

export interface PlannedEntry {
  kind: Exclude<ObjectKind, 'vendor'>;
  objectId: string;
  entityId: string;
  date: string;
  currency: Currency;
  memo: string;
  counterpart: Counterpart | null;
  lines: PlannedLine[];
  bill?: { vendorId: string; invoiceNumber: string | null; dueDate: string | null; total: number };
  payment?: { billPostingId: string; amount: number };
}

export interface PlannedVendor {
  kind: 'vendor';
  objectId: string;
  name: string;
  code: string;
}

export type Planned = PlannedEntry | PlannedVendor;
