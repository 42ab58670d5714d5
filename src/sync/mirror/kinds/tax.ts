import type { TaxCode as ErpTaxCode, TaxRate as ErpTaxRate } from '../../../erp/index.ts';
import {
  CreateTaxCodeRequest,
  TAX_CODE_FIELD_EXTERNAL_ID,
  type TaxCode,
  type TaxCodeOption,
  TaxCodeOptionInput,
  type TaxRate,
  TaxRateInput,
} from '../../../platform/index.ts';
import { contentHash } from '../content-hash.ts';
import type { DesiredItem, KindOps, RemoteItem } from '../model.ts';
import { answerOf, type Chart, checkWith, counted, type Meter, remoteItems, type Target } from './common.ts';

/**
 * Tax (docs/platform.md F13, F31): rates (each naming a GL account), then the connection's one tax
 * code field, then its options (each naming rates by remote id). Rates and options removed from
 * the ERP are deactivated with DELETE (F31); a changed rate or option is reported, not sent,
 * because no published PATCH body says which of their fields may change.
 */

// ------------------------------------------------------------------ rates

/** Rates name their GL account by its svc_id; `glSvcId` resolves the ERP's account id. */
export function desiredTaxRate(rate: ErpTaxRate, glSvcId: (remoteId: string) => string | null): DesiredItem {
  const content = { name: rate.name, rate: rate.rate, gl_account: rate.glAccountId };
  const gl = glSvcId(rate.glAccountId);
  return {
    remoteId: rate.id,
    active: true,
    hidden: false,
    upload: { id: rate.id, name: rate.name, rate: rate.rate, accounting_gl_account_id: gl ?? '' },
    patch: {},
    hash: contentHash(content),
    ...(gl === null ? { problem: `its GL account ${rate.glAccountId} is not on the platform` } : {}),
  };
}

function remoteTaxRate(rate: TaxRate, glRemoteId: (svcId: string) => string): RemoteItem {
  return {
    remoteId: rate.id,
    svcId: rate.svc_id,
    hash: contentHash({
      name: rate.name,
      rate: rate.rate,
      gl_account: rate.accounting_gl_account_id ? glRemoteId(rate.accounting_gl_account_id) : '',
    }),
    isActive: rate.is_active,
    visibility: 'VISIBLE',
  };
}

export function taxRateOps(
  chart: Chart,
  target: Target,
  meter: Meter,
  glRemoteId: (svcId: string) => string,
): KindOps {
  const toRemote = (rate: TaxRate) => remoteTaxRate(rate, glRemoteId);
  return {
    kind: 'tax_rate',
    listKey: 'tax_rates',
    batchSize: 500,
    visibility: false,
    check: checkWith(TaxRateInput),
    upload: async (items) => {
      const uploaded = await counted(meter, () =>
        chart.uploadTaxRates({ ...target, tax_rates: items as never[] }),
      );
      return answerOf(uploaded.items, toRemote);
    },
    list: () => remoteItems(chart.listTaxRates({ ...target }), meter, toRemote),
    remove: (svcId) => counted(meter, () => chart.deleteTaxRate(svcId, target)),
  };
}

// ------------------------------------------------------------------ the tax code field

const TAX_CODE_FIELD_NAME = 'Tax code';

/** The one tax code field of a connection, under the platform's fixed external id. */
export function desiredTaxCodeField(): DesiredItem {
  const body = { name: TAX_CODE_FIELD_NAME };
  return {
    remoteId: TAX_CODE_FIELD_EXTERNAL_ID,
    active: true,
    hidden: false,
    upload: body,
    patch: body,
    hash: contentHash(body),
  };
}

function remoteTaxCode(code: TaxCode): RemoteItem {
  return {
    remoteId: TAX_CODE_FIELD_EXTERNAL_ID,
    svcId: code.svc_id,
    hash: contentHash({ name: code.name }),
    isActive: code.is_active,
    visibility: 'VISIBLE',
  };
}

/**
 * POST /accounting/tax/code returns the existing field (renamed) when there is one: no 7020. An
 * answer without the field (F41) is settled by reading it (GET /accounting/tax/code).
 */
export function taxCodeFieldOps(chart: Chart, target: Target, meter: Meter): KindOps {
  const post = (name: string) => counted(meter, () => chart.createTaxCode({ ...target, name }));
  return {
    kind: 'tax_code_field',
    listKey: 'tax_code',
    batchSize: 1,
    visibility: false,
    check: (item) => checkWith(CreateTaxCodeRequest)({ ...target, ...item }),
    upload: async (items) => {
      const code = await post(String(items[0]!.name));
      return code ? { items: [remoteTaxCode(code)], unreadable: 0 } : { items: [], unreadable: 1 };
    },
    list: async function* () {
      meter.reads++;
      const code = await chart.getTaxCode(target);
      if (code) yield remoteTaxCode(code);
    },
    patch: async (_svcId, body) => {
      await post(String(body.name ?? TAX_CODE_FIELD_NAME));
    },
  };
}

// ------------------------------------------------------------------ tax code options

/** Options name rates by remote id; `rateMirrored` says which rates the platform holds. */
export function desiredTaxCodeOption(
  code: ErpTaxCode,
  rateMirrored: (remoteId: string) => boolean,
): DesiredItem {
  const body = { name: code.name, tax_rate_ids: [...code.rateIds].sort() };
  const missing = code.rateIds.filter((id) => !rateMirrored(id));
  return {
    remoteId: code.id,
    active: code.active,
    hidden: false,
    upload: { id: code.id, ...body },
    patch: {},
    hash: contentHash(body),
    ...(missing.length > 0
      ? { problem: `its tax rate(s) ${missing.join(', ')} are not on the platform` }
      : {}),
  };
}

function remoteTaxCodeOption(option: TaxCodeOption): RemoteItem {
  return {
    remoteId: option.id,
    svcId: option.svc_id,
    hash: contentHash({ name: option.name, tax_rate_ids: [...option.tax_rate_ids].sort() }),
    isActive: option.is_active,
    visibility: 'VISIBLE',
  };
}

export function taxCodeOptionOps(chart: Chart, target: Target, meter: Meter): KindOps {
  return {
    kind: 'tax_code_option',
    listKey: 'options',
    batchSize: 500,
    visibility: false,
    check: checkWith(TaxCodeOptionInput),
    upload: async (items) => {
      const uploaded = await counted(meter, () =>
        chart.uploadTaxCodeOptions({ ...target, options: items as never[] }),
      );
      return answerOf(uploaded.items, remoteTaxCodeOption);
    },
    list: () => remoteItems(chart.listTaxCodeOptions({ ...target }), meter, remoteTaxCodeOption),
    remove: (svcId) => counted(meter, () => chart.deleteTaxCodeOption(svcId, target)),
  };
}
