import { z } from 'zod';

/**
 * The chart of accounts as an ERP reports it (the read side of the ERP contract). The shapes
 * follow what the platform accepts (docs/platform.md F8–F13) so the mirror maps them one to one;
 * they are schemas because an ERP's answer is a boundary too.
 */

/**
 * Most items one chart stream may hold: ten times the 100k items docs/erp-http.md plans a stream
 * for. Its readers hold a stream whole (the chart mirror, the kit), so a stream that goes on past
 * this is taken for one that does not end (src/page-guard.ts), not read until memory runs out.
 */
export const CHART_STREAM_ITEMS_MAX = 1_000_000;

/** docs/platform.md F8: the platform's classification enum. */
export const GlClassification = z.enum([
  'ASSET',
  'LIABILITY',
  'EQUITY',
  'REVENUE',
  'EXPENSE',
  'CREDCARD',
  'ANY',
  'UNKNOWN',
]);
export type GlClassification = z.infer<typeof GlClassification>;

const remoteId = z.string().min(1).max(255);

export const GlAccount = z.strictObject({
  id: remoteId,
  name: z.string().min(1),
  /** "" when the account has no code (F8). */
  code: z.string(),
  classification: GlClassification,
  active: z.boolean(),
  /** Hidden: still active and syncing history, not offered for new coding (docs/platform.md G17). */
  hidden: z.boolean(),
});
export type GlAccount = z.infer<typeof GlAccount>;

/** docs/platform.md F9 input types. */
export const FieldInputType = z.enum(['SINGLE_CHOICE', 'FREE_FORM_TEXT', 'BOOLEAN', 'DATE']);
export type FieldInputType = z.infer<typeof FieldInputType>;

/** A custom field (department, class, location, project...). Options stream separately. */
export const CustomField = z.strictObject({
  id: remoteId,
  name: z.string().min(1),
  inputType: FieldInputType,
  active: z.boolean(),
  hidden: z.boolean(),
  /** Object kinds whose every line must carry an option of this field. */
  requiredFor: z.array(z.string()),
});
export type CustomField = z.infer<typeof CustomField>;

/** docs/platform.md F10: an option of a custom field; its id is unique within the field. */
export const FieldOption = z.strictObject({
  fieldId: remoteId,
  id: remoteId,
  value: z.string().min(1),
  code: z.string(),
  active: z.boolean(),
  hidden: z.boolean(),
});
export type FieldOption = z.infer<typeof FieldOption>;

/** docs/platform.md F11. */
export const ErpVendor = z.strictObject({
  id: remoteId,
  name: z.string().min(1),
  code: z.string(),
  active: z.boolean(),
});
export type ErpVendor = z.infer<typeof ErpVendor>;

/** docs/platform.md F13: rate as a decimal string ("0.05", "-0.2" for reverse charge). */
export const TaxRate = z.strictObject({
  id: remoteId,
  name: z.string().min(1),
  rate: z.string().regex(/^-?\d+(\.\d+)?$/),
  glAccountId: remoteId,
});
export type TaxRate = z.infer<typeof TaxRate>;

/** docs/platform.md F13: a tax code option groups one or more rates. */
export const TaxCode = z.strictObject({
  id: remoteId,
  name: z.string().min(1),
  rateIds: z.array(remoteId),
  active: z.boolean(),
});
export type TaxCode = z.infer<typeof TaxCode>;
