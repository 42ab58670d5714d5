import { z } from 'zod';
import { ErpErrorInfo } from './errors.ts';

/**
 * ERP-neutral inputs of the write side of the ERP contract (see adapter.ts), with zod schemas so
 * the sync layer can validate what it builds from platform objects, and adapters can refuse a
 * malformed input as an integration fault instead of writing it.
 *
 * Money is always an integer count of minor units (cents) with the ISO 4217 code and the
 * currency's exponent: 12.34 USD is `{ amountMinor: 1234 }` with `{ code: 'USD', exponent: 2 }`.
 * Codings name chart items by the ERP's remote ids (the `id` uploaded to the platform).
 */

/** The kinds of write an ERP accepts; each is idempotent by (kind, platform object id). */
export const ObjectKind = z.enum([
  'vendor',
  'card_transaction',
  'reimbursement',
  'transfer',
  'cashback',
  'bill',
  'bill_payment',
]);
export type ObjectKind = z.infer<typeof ObjectKind>;

export const RemoteId = z.string().min(1).max(255);

/**
 * C0 control characters other than tab, line feed and carriage return, and DEL. PostgreSQL
 * cannot store NUL in text, and XML-based ERP protocols refuse the others; they carry no
 * meaning in a memo or a name. The mapping removes them from free text (docs/decisions.md
 * "Control characters in free text are removed"); the schema refuses any that get through.
 */
export function isControlCharacter(code: number): boolean {
  return (code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) || code === 0x7f;
}

export function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (isControlCharacter(text.charCodeAt(i))) return true;
  return false;
}

/** Free text a bookkeeper wrote (memos, names): anything but control characters. */
const FreeText = z.string().refine((text) => !hasControlCharacter(text), 'contains a control character');

export const Currency = z.strictObject({
  /** ISO 4217 code, upper case. */
  code: z.string().regex(/^[A-Z]{3}$/, 'an ISO 4217 code such as USD'),
  /** Digits after the decimal point: USD 2, JPY 0, BHD 3. */
  exponent: z.number().int().min(0).max(4),
});
export type Currency = z.infer<typeof Currency>;

/** Signed integer minor units; a JS number stays exact up to 2^53 - 1. */
const MinorUnits = z.number().int();

/** Calendar date of the accounting event, YYYY-MM-DD. */
export const IsoDate = z.iso.date();

/** Who the object is about: the card holder, the reimbursed employee or the vendor. */
export const Counterpart = z.strictObject({
  role: z.enum(['card_holder', 'employee', 'vendor']),
  id: z.string().min(1),
  name: FreeText,
});
export type Counterpart = z.infer<typeof Counterpart>;

/** How one line is coded, by remote id. `dimensions` maps a custom field id to an option id. */
export const Coding = z.strictObject({
  glAccountId: RemoteId,
  vendorId: RemoteId.optional(),
  taxCodeId: RemoteId.optional(),
  dimensions: z.record(RemoteId, RemoteId),
  memo: FreeText,
});
export type Coding = z.infer<typeof Coding>;

/** A coded line; its amount includes tax when a tax code is selected (the ERP splits it out). */
export const CodedLine = Coding.extend({ amountMinor: MinorUnits });
export type CodedLine = z.infer<typeof CodedLine>;

const headerShape = {
  /** The platform object id: the idempotency key of the write. */
  objectId: z.string().min(1).max(255),
  date: IsoDate,
  /** The platform entity (subsidiary); null means the ERP's default entity. */
  entityId: z.string().min(1).nullable(),
  currency: Currency,
  /** Signed total in minor units; negative for refunds and reversals. */
  totalMinor: MinorUnits,
  memo: FreeText,
  counterpart: Counterpart.nullable(),
};

function linesSumToTotal(value: { totalMinor: number; lines: readonly { amountMinor: number }[] }): boolean {
  return value.lines.reduce((sum, line) => sum + line.amountMinor, 0) === value.totalMinor;
}
const LINES_SUM = { message: 'line amounts must sum to totalMinor', path: ['lines'] };

/** A card transaction or card refund (negative total); split line items are separate lines. */
export const CardTransactionInput = z
  .strictObject({
    kind: z.literal('card_transaction'),
    ...headerShape,
    // A zero total has no lines worth posting: an entry with nothing in it.
    totalMinor: MinorUnits.refine((n) => n !== 0, 'a card transaction moves a non-zero amount'),
    lines: z.array(CodedLine).min(1),
    /** The card program's liability account; the ERP's default when absent. */
    liabilityAccountId: RemoteId.optional(),
  })
  .refine(linesSumToTotal, LINES_SUM);
export type CardTransactionInput = z.infer<typeof CardTransactionInput>;

/** An out-of-pocket expense paid back to an employee. */
export const ReimbursementInput = z
  .strictObject({
    kind: z.literal('reimbursement'),
    ...headerShape,
    totalMinor: MinorUnits.refine((n) => n !== 0, 'a reimbursement pays a non-zero amount'),
    lines: z.array(CodedLine).min(1),
    /** The employee payable account; the ERP's default when absent. */
    payableAccountId: RemoteId.optional(),
  })
  .refine(linesSumToTotal, LINES_SUM);
export type ReimbursementInput = z.infer<typeof ReimbursementInput>;

/** A payment of the card balance from a bank account (the platform's transfer payment). */
export const TransferInput = z.strictObject({
  kind: z.literal('transfer'),
  ...headerShape,
  totalMinor: MinorUnits.refine((n) => n !== 0, 'a transfer moves a non-zero amount'),
  bankAccountId: RemoteId.optional(),
  liabilityAccountId: RemoteId.optional(),
});
export type TransferInput = z.infer<typeof TransferInput>;

/** A cashback (statement credit): reduces the card balance, earns income. */
export const CashbackInput = z.strictObject({
  kind: z.literal('cashback'),
  ...headerShape,
  totalMinor: MinorUnits.refine((n) => n !== 0, 'a cashback credits a non-zero amount'),
  incomeAccountId: RemoteId.optional(),
  liabilityAccountId: RemoteId.optional(),
});
export type CashbackInput = z.infer<typeof CashbackInput>;

/** A vendor bill; the deep link to it in the ERP is reported to the platform. */
export const BillInput = z
  .strictObject({
    kind: z.literal('bill'),
    ...headerShape,
    totalMinor: MinorUnits.positive(),
    vendorId: RemoteId,
    invoiceNumber: FreeText.max(255).nullable(),
    dueDate: IsoDate.nullable(),
    lines: z.array(CodedLine).min(1),
    payableAccountId: RemoteId.optional(),
  })
  .refine(linesSumToTotal, LINES_SUM);
export type BillInput = z.infer<typeof BillInput>;

/** A payment of a bill already in the ERP, named by the bill's platform object id. */
export const BillPaymentInput = z.strictObject({
  kind: z.literal('bill_payment'),
  ...headerShape,
  totalMinor: MinorUnits.positive(),
  billObjectId: z.string().min(1).max(255),
  bankAccountId: RemoteId.optional(),
});
export type BillPaymentInput = z.infer<typeof BillPaymentInput>;

/** A vendor to create in the ERP (accounting-vendor creation on sync, docs/platform.md G26). */
export const VendorInput = z.strictObject({
  kind: z.literal('vendor'),
  /** The platform id the vendor is created for (the platform vendor or the transaction). */
  objectId: z.string().min(1).max(255),
  name: z.string().trim().min(1).max(255),
  code: z.string().max(64).optional(),
});
export type VendorInput = z.infer<typeof VendorInput>;

/** Any write, as postMany takes it. */
export const ErpWrite = z.discriminatedUnion('kind', [
  VendorInput,
  CardTransactionInput,
  ReimbursementInput,
  TransferInput,
  CashbackInput,
  BillInput,
  BillPaymentInput,
]);
export type ErpWrite = z.infer<typeof ErpWrite>;
export type PostingInput = Exclude<ErpWrite, VendorInput>;

/** What a write returns; a refusal is a value too (see errors.ts). */
const WriteSuccess = z.strictObject({
  ok: z.literal(true),
  kind: ObjectKind,
  objectId: z.string().min(1),
  /** The ERP's id of what it wrote: the `reference_id` reported to the platform. */
  referenceId: z.string().min(1),
  /** A link into the ERP (always present for bills). */
  deepLinkUrl: z.url().optional(),
  /** True when the object was already in the ERP and nothing was written this time. */
  replayed: z.boolean(),
});

const WriteFailure = z.strictObject({
  ok: z.literal(false),
  kind: ObjectKind,
  objectId: z.string(),
  error: ErpErrorInfo,
});

export const WriteResult = z.discriminatedUnion('ok', [WriteSuccess, WriteFailure]);
export type WriteResult = z.infer<typeof WriteResult>;

/**
 * What a write would answer now (`checkMany`, adapter.ts): a refusal as postMany would give it,
 * or an acceptance. Nothing is written, so a new object has no reference yet.
 */
export const CheckResult = z.discriminatedUnion('ok', [
  z.strictObject({
    ok: z.literal(true),
    kind: ObjectKind,
    objectId: z.string().min(1),
    /** True when the object is already in the ERP: postMany would replay it. */
    replayed: z.boolean(),
  }),
  WriteFailure,
]);
export type CheckResult = z.infer<typeof CheckResult>;

/** What the ERP holds for a platform object id, to resolve an uncertain outcome. */
export const LookupResult = z.discriminatedUnion('found', [
  z.strictObject({
    found: z.literal(true),
    kind: ObjectKind,
    objectId: z.string(),
    referenceId: z.string().min(1),
    deepLinkUrl: z.url().optional(),
    postedAt: z.string(),
  }),
  z.strictObject({ found: z.literal(false), kind: ObjectKind, objectId: z.string() }),
]);
export type LookupResult = z.infer<typeof LookupResult>;
