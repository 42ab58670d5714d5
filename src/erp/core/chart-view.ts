import type { Currency, ObjectKind } from '../types.ts';
import type { DefaultRole } from './roles.ts';
import type { ErpTerms } from './terms.ts';

/**
 * The neutral view of an ERP's books that the checks (checks.ts) and the posting plans
 * (plan.ts) read. An adapter fills it from what it loaded for one batch, in its own ids (as
 * strings); every lookup is in memory. Answers the checks need and nothing of how the ERP keeps
 * them.
 */

/** The books an object is posted to, and how messages name them ("Acme Inc.", "Acme in Tryton"). */
export interface Books {
  entityId: string;
  label: string;
  currency: Currency;
}

/** The period of a date in some books: open, closed (by its name in messages), or none at all. */
type PeriodState = { open: true } | { open: false; name: string };

export interface ChartAccount {
  id: string;
  code: string | null;
  name: string;
  active: boolean;
  /** False for an account that only groups others (nothing can be posted to it). */
  postable: boolean;
  /** Income or expense account (an income-statement account, as opposed to a balance-sheet one). */
  incomeStatement: boolean;
}

export interface ChartVendor {
  id: string;
  name: string | null;
  active: boolean;
}

interface ChartTaxRate {
  id: string;
  name: string;
  /** Decimal string, e.g. "0.05" or "-0.2". */
  rate: string;
  accountId: string;
}

export interface ChartTaxCode {
  id: string;
  name: string;
  active: boolean;
  rates: ChartTaxRate[];
  /** False when the ERP cannot post the code as it stands (e.g. no rate with an account). */
  usable: boolean;
}

/** A custom field (dimension). Which lines must carry it: */
export interface ChartField {
  id: string;
  name: string;
  active: boolean;
  /** Its values are options by id (else any value: free text, dates, booleans). */
  hasOptions: boolean;
  /** The kinds whose lines need it (null: every kind), and whether only lines of income-statement accounts. */
  required: { kinds: readonly ObjectKind[] | null; incomeStatementOnly: boolean } | null;
}

interface ChartOption {
  id: string;
  name: string;
  active: boolean;
}

/** A role's configured account, or the code that was looked for in vain (undefined: none set). */
type RoleDefault = { accountId: string } | { lookedFor: string | undefined };

/** A posted bill that payments pay. `open` shrinks as payments are planned. */
export interface OpenBill {
  /** The ERP's own id of the bill (a payment refers to it when written). */
  id: string;
  /** How messages name it: "bill BILL-0000041", "invoice 7 in Tryton". */
  label: string;
  vendorId: string;
  /** Currency code, or a phrase when the ERP keeps it in a currency without a code we know. */
  currency: string;
  open: number;
  /** The account the bill was credited to, when the ERP keeps it (else the accounts payable role). */
  payableAccountId?: string;
}

export interface PostingChart {
  terms: ErpTerms;
  /** The books of an entity (null: the default books), or undefined when the ERP keeps none. */
  books(entityId: string | null): Books | undefined;
  /** The period of `date` in `books`; undefined when the ERP has no period for it. */
  period(books: Books, date: string): PeriodState | undefined;
  account(id: string): ChartAccount | undefined;
  roleDefault(role: DefaultRole): RoleDefault;
  vendor(id: string): ChartVendor | undefined;
  taxCode(id: string): ChartTaxCode | undefined;
  field(id: string): ChartField | undefined;
  fields(): Iterable<ChartField>;
  option(fieldId: string, optionId: string): ChartOption | undefined;
  /** A posted bill by its platform object id; setting its `open` must hold for the rest of the batch. */
  bill(billObjectId: string): OpenBill | undefined;
}
