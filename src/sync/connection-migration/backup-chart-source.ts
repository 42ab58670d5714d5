import { z } from 'zod';
import {
  CustomField,
  ErpVendor,
  FieldOption,
  GlAccount,
  GlClassification,
  TaxCode,
  TaxRate,
} from '../../erp/index.ts';
import { issuesText } from '../../zod-issues.ts';
import type { ChartSource } from '../mirror/index.ts';
import type { PlatformChart } from './platform-chart.ts';

/** A backed-up item that cannot be uploaded again, and why. */
export interface SkippedItem {
  list: string;
  id: string;
  reason: string;
}

/**
 * The fields a backup item must carry to be uploaded again, as the platform answered them
 * (docs/platform.md F8-F13). The backup keeps every item whole; these read only what an upload
 * or a PATCH sends.
 */
const Active = { is_active: z.boolean(), visibility: z.string().nullish() };
const BackupGlAccount = z.looseObject({
  id: z.string(),
  name: z.string(),
  code: z.string().nullish(),
  classification: z.string().nullish(),
  ...Active,
});
const BackupField = z.looseObject({
  id: z.string(),
  name: z.string(),
  input_type: z.string(),
  is_required_for: z.array(z.string()).nullish(),
  ...Active,
});
const BackupOption = z.looseObject({
  id: z.string(),
  value: z.string(),
  code: z.string().nullish(),
  ...Active,
});
const BackupVendor = z.looseObject({
  id: z.string(),
  name: z.string(),
  code: z.string().nullish(),
  ...Active,
});
const BackupTaxRate = z.looseObject({
  id: z.string(),
  name: z.string(),
  rate: z.string(),
  accounting_gl_account_id: z.string(),
  is_active: z.boolean(),
});
const BackupTaxCodeOption = z.looseObject({
  id: z.string(),
  name: z.string(),
  tax_rate_ids: z.array(z.string()),
  is_active: z.boolean(),
});

/**
 * A chart backup seen as the chart source the mirror reads (src/sync/mirror), so a restore
 * uploads it with the mirror's own diff, batches and DEVELOPER_7020 adoption (docs/platform.md
 * F12): every item comes back under its remote id, with its name, code, classification, active
 * flag and visibility (HIDDEN stays hidden, G17). Each item is read through the ERP chart
 * schemas, the mirror's input boundary; one that does not pass is skipped and named, never
 * uploaded half-read. Inactive items are restored inactive (an item never uploaded is not
 * created); the platform's svc_ids are its own and come back new.
 */
export function backupChartSource(chart: PlatformChart): { source: ChartSource; skipped: SkippedItem[] } {
  const skipped: SkippedItem[] = [];
  const read = <In, Out>(
    list: string,
    items: readonly unknown[],
    schema: z.ZodType<In>,
    toErp: (item: In) => unknown,
    erpSchema: z.ZodType<Out>,
  ): Out[] => {
    const out: Out[] = [];
    for (const raw of items) {
      const id = String((raw as { id?: unknown })?.id ?? '(no id)');
      const parsed = schema.safeParse(raw);
      if (!parsed.success) {
        skipped.push({ list, id, reason: issuesText(parsed.error, { root: '(item)' }) });
        continue;
      }
      const erp = erpSchema.safeParse(toErp(parsed.data));
      if (!erp.success) skipped.push({ list, id, reason: issuesText(erp.error, { root: '(item)' }) });
      else out.push(erp.data);
    }
    return out;
  };
  const hidden = (visibility: string | null | undefined) => visibility === 'HIDDEN';

  const glAccounts = read(
    'gl_accounts',
    chart.gl_accounts,
    BackupGlAccount,
    (a) => ({
      id: a.id,
      name: a.name,
      code: a.code ?? '',
      // Fixed at upload (docs/platform.md F30): kept as backed up; an unknown one reads UNKNOWN.
      classification: GlClassification.safeParse(a.classification).data ?? 'UNKNOWN',
      active: a.is_active,
      hidden: hidden(a.visibility),
    }),
    GlAccount,
  );
  const fields = read(
    'fields',
    chart.fields,
    BackupField,
    (f) => ({
      id: f.id,
      name: f.name,
      inputType: f.input_type,
      active: f.is_active,
      hidden: false,
      requiredFor: f.is_required_for ?? [],
    }),
    CustomField,
  );
  const options = new Map<string, FieldOption[]>();
  for (const field of chart.fields) {
    const list = `options of ${field.id}`;
    options.set(
      field.id,
      read(
        list,
        field.options,
        BackupOption,
        (o) => ({
          fieldId: field.id,
          id: o.id,
          value: o.value,
          code: o.code ?? '',
          active: o.is_active,
          hidden: hidden(o.visibility),
        }),
        FieldOption,
      ),
    );
  }
  const vendors = read(
    'vendors',
    chart.vendors,
    BackupVendor,
    (v) => ({ id: v.id, name: v.name, code: v.code ?? '', active: v.is_active }),
    ErpVendor,
  );
  // A rate names its GL account by svc_id (or by remote id, which the platform also reads).
  const glRemoteId = new Map(chart.gl_accounts.map((a) => [a.svc_id, a.id]));
  // Tax rates have no active flag in the ERP's terms: an inactive backed-up rate is not restored.
  const activeRates = chart.tax_rates.filter((r) => r.is_active);
  const taxRates = read(
    'tax_rates',
    activeRates,
    BackupTaxRate,
    (r) => ({
      id: r.id,
      name: r.name,
      rate: r.rate,
      glAccountId: glRemoteId.get(r.accounting_gl_account_id) ?? r.accounting_gl_account_id,
    }),
    TaxRate,
  );
  const taxCodes = read(
    'tax_code_options',
    chart.tax_code_options,
    BackupTaxCodeOption,
    (c) => ({ id: c.id, name: c.name, rateIds: c.tax_rate_ids, active: c.is_active }),
    TaxCode,
  );
  for (const item of chart.unreadable) {
    skipped.push({
      list: item.list,
      id: item.id ?? '(no id)',
      reason: `unreadable when backed up: ${item.error}`,
    });
  }

  async function* each<T>(items: readonly T[]): AsyncGenerator<T> {
    yield* items;
  }
  const source: ChartSource = {
    glAccounts: () => each(glAccounts),
    customFields: () => each(fields),
    fieldOptions: (fieldId: string) => each(options.get(fieldId) ?? []),
    vendors: () => each(vendors),
    taxRates: () => each(taxRates),
    taxCodes: () => each(taxCodes),
  };
  return { source, skipped };
}
