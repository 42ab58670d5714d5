import { z } from 'zod';
import { ActiveFlag, RemoteId, SvcId } from './common.ts';

/**
 * Tax (docs/platform.md F13): rates first, then the tax code field, then its options. Rates may be
 * negative (reverse charge, docs/platform.md G18).
 */

const Target = { accounting_connection_id: z.string().min(1).optional() };

/** Decimal string, possibly negative: "0.05", "-0.2". */
const TaxRateValue = z.string().regex(/^-?\d+(\.\d+)?$/, 'rate must be a decimal string like "0.05"');

export const TaxRateInput = z.strictObject({
  id: RemoteId,
  name: z.string().min(1),
  rate: TaxRateValue,
  accounting_gl_account_id: z.string().min(1),
});
export type TaxRateInput = z.infer<typeof TaxRateInput>;

export const UploadTaxRatesRequest = z.strictObject({
  ...Target,
  tax_rates: z.array(TaxRateInput).min(1).max(500),
});
export type UploadTaxRatesRequest = z.infer<typeof UploadTaxRatesRequest>;

/** Read tolerantly (docs/platform.md F22): the published tax shapes carry no `is_active`. */
export const TaxRate = z.object({
  id: z.string(),
  svc_id: SvcId,
  name: z.string(),
  rate: z.union([z.string(), z.number()]).transform(String),
  accounting_gl_account_id: z.string().nullish(),
  is_active: ActiveFlag,
});
export type TaxRate = z.infer<typeof TaxRate>;

export const UploadTaxRatesResponse = z.object({
  accounting_connection_id: SvcId,
  tax_rates: z.array(TaxRate),
});
export type UploadTaxRatesResponse = z.infer<typeof UploadTaxRatesResponse>;

/** POST /accounting/tax/code: the tax code field of the connection (one per connection). */
export const CreateTaxCodeRequest = z.strictObject({
  ...Target,
  name: z.string().min(1),
  display_name: z.string().nullable().optional(),
});
export type CreateTaxCodeRequest = z.infer<typeof CreateTaxCodeRequest>;

/** External id under which tax code selections appear (category_info.external_id). */
export const TAX_CODE_FIELD_EXTERNAL_ID = 'TaxCode';

export const TaxCode = z.object({
  id: z.string().nullish(),
  svc_id: SvcId,
  name: z.string(),
  display_name: z.string().nullish(),
  is_active: ActiveFlag,
  accounting_connection_id: z.string().nullish(),
});
export type TaxCode = z.infer<typeof TaxCode>;

export const TaxCodeOptionInput = z.strictObject({
  id: RemoteId,
  name: z.string().min(1),
  tax_rate_ids: z.array(z.string().min(1)),
});
export type TaxCodeOptionInput = z.infer<typeof TaxCodeOptionInput>;

/** F13 (docs/platform.md G32: the body field `tax_codes` was renamed `options`). */
export const UploadTaxCodeOptionsRequest = z.strictObject({
  ...Target,
  options: z.array(TaxCodeOptionInput).min(1).max(500),
});
export type UploadTaxCodeOptionsRequest = z.infer<typeof UploadTaxCodeOptionsRequest>;

/** F31: options carry their connection; `tax_rate_ids` are the rates' remote ids. */
export const TaxCodeOption = z.object({
  id: z.string(),
  svc_id: SvcId,
  name: z.string(),
  tax_rate_ids: z
    .array(z.string())
    .nullish()
    .transform((ids) => ids ?? []),
  is_active: ActiveFlag,
  accounting_connection_id: z.string().nullish(),
});
export type TaxCodeOption = z.infer<typeof TaxCodeOption>;

export const UploadTaxCodeOptionsResponse = z.object({
  accounting_connection_id: SvcId,
  options: z.array(TaxCodeOption),
});
export type UploadTaxCodeOptionsResponse = z.infer<typeof UploadTaxCodeOptionsResponse>;
