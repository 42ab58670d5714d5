import type { FieldInputType, GlClassification } from '../chart.ts';
import type { PlannedEntry } from '../core/plan.ts';
import type { DefaultRole } from '../core/roles.ts';
import type { Currency } from '../types.ts';

/**
 * The ledger's in-memory view of what one batch of writes refers to (loaded by context.ts; the
 * posting core reads it through posting-chart.ts), and what it writes (insert-journal.ts). Pure
 * data: planning never touches the database.
 */

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

interface TaxRateRow {
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

interface ClosedPeriod {
  start: string;
  end: string;
}

/** A bill already in the ledger, keyed by its platform object id. */
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

export interface PlannedVendor {
  kind: 'vendor';
  objectId: string;
  name: string;
  code: string;
}

export type Planned = PlannedEntry | PlannedVendor;
