import type { z } from 'zod';
import { PlatformError } from '../errors.ts';
import type { Listing } from '../pagination.ts';
import {
  CreateTaxCodeRequest,
  TaxCode,
  TaxCodeOption,
  TaxRate,
  UploadTaxCodeOptionsRequest,
  UploadTaxRatesRequest,
} from '../schemas/accounting.ts';
import {
  type ConnectionTarget,
  checkBody,
  createOne,
  fetchOne,
  listing,
  type ResourceContext,
  segment,
  type Uploaded,
  upload,
  withTarget,
} from './context.ts';

type In<S extends z.ZodType> = z.input<S>;

/**
 * Tax (docs/platform.md F13, F31), part of the chart of accounts: rates first (they name a GL
 * account), then the connection's tax code field, then its options (which name rates by remote
 * id). Rates may be negative (reverse charge). Deletes carry the target in a JSON body (F29).
 */
export function taxResource(ctx: ResourceContext) {
  const remove = async (path: string, target?: ConnectionTarget): Promise<void> => {
    await ctx.send({ method: 'DELETE', path, body: withTarget({}, target) });
  };
  return {
    /** F31: DELETE /accounting/tax/rates/{svc_id} deactivates a rate. */
    deleteTaxRate(svcId: string, target?: ConnectionTarget): Promise<void> {
      return remove(`/accounting/tax/rates/${segment(svcId)}`, target);
    },
    /** F31: DELETE /accounting/tax/code/options/{svc_id} deactivates an option. */
    deleteTaxCodeOption(svcId: string, target?: ConnectionTarget): Promise<void> {
      return remove(`/accounting/tax/code/options/${segment(svcId)}`, target);
    },
    async uploadTaxRates(body: In<typeof UploadTaxRatesRequest>): Promise<Uploaded<TaxRate>> {
      checkBody(UploadTaxRatesRequest, body, 'POST /accounting/tax/rates');
      return upload(ctx, '/accounting/tax/rates', body, 'tax_rates', TaxRate, 'tax rate');
    },
    listTaxRates(filters: ConnectionTarget & { page_size?: number } = {}): Listing<TaxRate> {
      return listing(ctx, '/accounting/tax/rates', filters, TaxRate, 'tax rate');
    },
    /** Null when the answer does not carry the field (F41): getTaxCode reads it again. */
    async createTaxCode(body: In<typeof CreateTaxCodeRequest>): Promise<TaxCode | null> {
      checkBody(CreateTaxCodeRequest, body, 'POST /accounting/tax/code');
      return createOne(ctx, { method: 'POST', path: '/accounting/tax/code', body }, TaxCode);
    },
    /** F31: the connection's active tax code field; null when it has none (404). */
    async getTaxCode(target: ConnectionTarget = {}): Promise<TaxCode | null> {
      try {
        return await fetchOne(
          ctx,
          { method: 'GET', path: '/accounting/tax/code', query: { ...target } },
          TaxCode,
        );
      } catch (error) {
        if (error instanceof PlatformError && error.status === 404) return null;
        throw error;
      }
    },
    async uploadTaxCodeOptions(
      body: In<typeof UploadTaxCodeOptionsRequest>,
    ): Promise<Uploaded<TaxCodeOption>> {
      checkBody(UploadTaxCodeOptionsRequest, body, 'POST /accounting/tax/code/options');
      return upload(ctx, '/accounting/tax/code/options', body, 'options', TaxCodeOption, 'tax code option');
    },
    listTaxCodeOptions(filters: ConnectionTarget & { page_size?: number } = {}): Listing<TaxCodeOption> {
      return listing(ctx, '/accounting/tax/code/options', filters, TaxCodeOption, 'tax code option');
    },
  };
}
