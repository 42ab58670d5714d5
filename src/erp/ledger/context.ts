import type { Sql } from 'postgres';
import { DEFAULT_ROLES, type DefaultRole } from '../core/roles.ts';
import type { ErpWrite, PostingInput } from '../types.ts';
import {
  type AccountRow,
  type BillRow,
  type EntityRow,
  type FieldRow,
  type OptionRow,
  optionKey,
  type PostingContext,
  type TaxCodeRow,
  type VendorRow,
} from './model.ts';
import { keyOf, type PostingRow } from './postings.ts';
import type { LedgerTables } from './tables.ts';

/**
 * Everything one batch needs to be planned, read in ONE statement (one round trip, one
 * snapshot): which of its objects are already posted, the bills its payments pay, and the part
 * of the chart it names — only the ids it names (a 100k-vendor chart is never read whole), plus
 * the small tables (entities, fields, closed periods, posting defaults) in full.
 *
 * One snapshot matters for payments: a payment counted in a bill's `paid` is seen as posted
 * too, so a concurrent duplicate replays instead of being refused as an overpayment.
 */

interface Needs {
  keys: string;
  accountIds: string[];
  vendorIds: string[];
  fieldIds: string[];
  optionIds: string[];
  taxCodeIds: string[];
  billObjectIds: string[];
}

const COUNTER_ACCOUNT_KEYS = [
  'liabilityAccountId',
  'payableAccountId',
  'bankAccountId',
  'incomeAccountId',
] as const;

function addLineNeeds(
  item: PostingInput,
  accounts: Set<string>,
  vendors: Set<string>,
  taxCodes: Set<string>,
  options: Map<string, [string, string]>,
) {
  if (!('lines' in item)) return;
  for (const line of item.lines) {
    accounts.add(line.glAccountId);
    if (line.vendorId) vendors.add(line.vendorId);
    if (line.taxCodeId) taxCodes.add(line.taxCodeId);
    for (const [field, option] of Object.entries(line.dimensions))
      options.set(optionKey(field, option), [field, option]);
  }
}

function needsOf(items: readonly ErpWrite[], overrides: Partial<Record<DefaultRole, string>>): Needs {
  const accounts = new Set<string>(Object.values(overrides).filter((v): v is string => Boolean(v)));
  const vendors = new Set<string>();
  const options = new Map<string, [string, string]>();
  const taxCodes = new Set<string>();
  const bills = new Set<string>();
  for (const item of items) {
    if (item.kind === 'vendor') continue;
    for (const key of COUNTER_ACCOUNT_KEYS) {
      const id = (item as Partial<Record<(typeof COUNTER_ACCOUNT_KEYS)[number], string>>)[key];
      if (id) accounts.add(id);
    }
    if (item.kind === 'bill') vendors.add(item.vendorId);
    if (item.kind === 'bill_payment') bills.add(item.billObjectId);
    addLineNeeds(item, accounts, vendors, taxCodes, options);
  }
  const pairs = [...options.values()];
  return {
    keys: JSON.stringify(items.map((i) => ({ kind: i.kind, object_id: i.objectId }))),
    accountIds: [...accounts],
    vendorIds: [...vendors],
    fieldIds: pairs.map((p) => p[0]),
    optionIds: pairs.map((p) => p[1]),
    taxCodeIds: [...taxCodes],
    billObjectIds: [...bills],
  };
}

interface ViewRow {
  existing: PostingRow[] | null;
  bills: BillRow[] | null;
  accounts: AccountRow[] | null;
  vendors: VendorRow[] | null;
  fields: FieldRow[] | null;
  options: OptionRow[] | null;
  tax_codes: TaxCodeRow[] | null;
  entities: { id: string; name: string; code: string; exponent: number; isDefault: boolean }[] | null;
  periods: { start: string; end: string }[] | null;
  defaults: { role: DefaultRole; accountId: string }[] | null;
}

/**
 * One statement reads all a batch needs. The batch's postings are probed through their unique
 * key one by one (LATERAL with LIMIT 1, which the planner cannot turn into a join): as a join,
 * a plan made while the postings table was small hashed the whole table for every batch.
 */
async function readView(sql: Sql, t: LedgerTables, n: Needs): Promise<ViewRow> {
  const [row] = await sql<ViewRow[]>`
    select
      (select json_agg(json_build_object('kind', p.kind, 'objectId', p.object_id, 'postingId', p.id::text,
                'referenceId', p.reference_id,
                'postedAt', to_char(p.posted_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')))
         from json_to_recordset(${n.keys}::text::json) as k(kind text, object_id text)
         cross join lateral (select * from ${t.postings} p
                              where p.kind = k.kind and p.object_id = k.object_id limit 1) p) as existing,
      (select json_agg(json_build_object('postingId', p.id::text, 'objectId', p.object_id,
                'referenceId', p.reference_id, 'vendorId', b.vendor_id, 'currency', b.currency,
                'total', b.total, 'paid', b.paid))
         from ${t.postings} p join ${t.bills} b on b.id = p.id
        where p.kind = 'bill' and p.object_id = any(${n.billObjectIds}::text[])) as bills,
      (select json_agg(json_build_object('id', a.id, 'code', a.code, 'name', a.name,
                'classification', a.classification, 'active', a.active))
         from ${t.accounts} a
        where a.id = any(${n.accountIds}::text[])
           or a.id in (select account_id from ${t.posting_defaults})
           or a.id in (select r.account_id from ${t.tax_code_rates} cr join ${t.tax_rates} r on r.id = cr.tax_rate_id
                        where cr.tax_code_id = any(${n.taxCodeIds}::text[]))) as accounts,
      (select json_agg(json_build_object('id', v.id, 'name', v.name, 'code', v.code, 'active', v.active))
         from ${t.vendors} v where v.id = any(${n.vendorIds}::text[])) as vendors,
      (select json_agg(json_build_object('id', f.id, 'name', f.name, 'inputType', f.input_type,
                'active', f.active, 'requiredFor', f.required_for))
         from ${t.custom_fields} f) as fields,
      (select json_agg(json_build_object('fieldId', o.field_id, 'id', o.id, 'value', o.value, 'active', o.active))
         from unnest(${n.fieldIds}::text[], ${n.optionIds}::text[]) as k(field_id, id)
         join ${t.field_options} o on o.field_id = k.field_id and o.id = k.id) as options,
      (select json_agg(json_build_object('id', c.id, 'name', c.name, 'active', c.active, 'rates',
                (select coalesce(json_agg(json_build_object('id', r.id, 'name', r.name, 'rate', r.rate::text,
                                                            'accountId', r.account_id) order by r.id), '[]')
                   from ${t.tax_code_rates} cr join ${t.tax_rates} r on r.id = cr.tax_rate_id
                  where cr.tax_code_id = c.id)))
         from ${t.tax_codes} c where c.id = any(${n.taxCodeIds}::text[])) as tax_codes,
      (select json_agg(json_build_object('id', e.id, 'name', e.name, 'code', e.currency,
                'exponent', e.currency_exponent, 'isDefault', e.is_default))
         from ${t.entities} e) as entities,
      (select json_agg(json_build_object('start', p.period_start, 'end', p.period_end))
         from ${t.periods} p where p.closed_at is not null) as periods,
      (select json_agg(json_build_object('role', d.role, 'accountId', d.account_id))
         from ${t.posting_defaults} d) as defaults`;
  return row!;
}

function byId<T extends { id: string }>(rows: readonly T[] | null): Map<string, T> {
  return new Map((rows ?? []).map((r) => [r.id, r]));
}

export interface BatchView {
  existing: Map<string, PostingRow>;
  ctx: PostingContext;
}

export async function readBatchView(
  sql: Sql,
  t: LedgerTables,
  items: readonly ErpWrite[],
  overrides: Partial<Record<DefaultRole, string>>,
): Promise<BatchView> {
  const view = await readView(sql, t, needsOf(items, overrides));
  const stored = Object.fromEntries((view.defaults ?? []).map((d) => [d.role, d.accountId]));
  const defaults: Partial<Record<DefaultRole, string>> = {};
  for (const role of DEFAULT_ROLES) {
    const id = overrides[role] ?? stored[role];
    if (id) defaults[role] = id;
  }
  const entities = (view.entities ?? []).map(
    (e): EntityRow => ({
      id: e.id,
      name: e.name,
      currency: { code: e.code, exponent: e.exponent },
      isDefault: e.isDefault,
    }),
  );
  return {
    existing: new Map((view.existing ?? []).map((r) => [keyOf(r), r])),
    ctx: {
      accounts: byId(view.accounts),
      vendors: byId(view.vendors),
      fields: byId(view.fields),
      options: new Map((view.options ?? []).map((o) => [optionKey(o.fieldId, o.id), o])),
      taxCodes: byId(view.tax_codes),
      entities: byId(entities),
      closedPeriods: view.periods ?? [],
      defaults,
      bills: new Map((view.bills ?? []).map((b) => [b.objectId, b])),
    },
  };
}
