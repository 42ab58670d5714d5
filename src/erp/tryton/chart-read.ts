import { z } from 'zod';
import type {
  CustomField,
  ErpVendor,
  FieldOption,
  GlAccount,
  GlClassification,
  TaxCode,
  TaxRate,
} from '../chart.ts';
import { normaliseRate } from './codec.ts';
import type { TrytonModels } from './models.ts';
import {
  ACCOUNT_FIELDS,
  AccountRow,
  ANALYTIC_FIELDS,
  AnalyticRow,
  PARTY_FIELDS,
  PartyRow,
  TAX_FIELDS,
  TaxRow,
  TYPE_FIELDS,
  TypeRow,
} from './rows.ts';

/**
 * The chart of accounts as Tryton holds it, streamed page by page: postable accounts (those
 * with a type), analytic axes as custom fields with their accounts as options, parties as
 * vendors, percentage taxes as rates and top-level taxes as tax codes. Ids are Tryton's record
 * ids as strings; they are what objects are coded with.
 */

const CompanyParty = z.object({ party: z.number().int() });

/** Inactive records too: the platform keeps them, flagged. */
const ALL = { context: { active_test: false } };

/** Kinds whose lines carry analytic axes (Tryton expects every axis on income lines). */
export const ANALYTIC_KINDS = ['card_transaction', 'reimbursement', 'bill'];

export async function readTypes(m: TrytonModels): Promise<Map<number, TypeRow>> {
  const rows = await m.searchRead('account.account.type', [], TYPE_FIELDS, TypeRow, ALL);
  return new Map(rows.map((t) => [t.id, t]));
}

/** Tryton types carry flags; equity has none, so the chain of parents names it. */
export function classify(typeId: number | null, types: Map<number, TypeRow>): GlClassification {
  const type = typeId === null ? undefined : types.get(typeId);
  if (!type) return 'UNKNOWN';
  if (type.expense) return 'EXPENSE';
  if (type.revenue) return 'REVENUE';
  if (type.payable) return 'LIABILITY';
  if (type.receivable || type.assets) return 'ASSET';
  if (type.statement !== 'balance') return type.statement === 'income' ? 'ANY' : 'UNKNOWN';
  for (let t: TypeRow | undefined = type; t; t = t.parent === null ? undefined : types.get(t.parent)) {
    if (/equity/i.test(t.name)) return 'EQUITY';
  }
  return 'LIABILITY';
}

export async function* readGlAccounts(m: TrytonModels): AsyncIterable<GlAccount> {
  const types = await readTypes(m);
  for await (const a of m.searchAll(
    'account.account',
    [['type', '!=', null]],
    ACCOUNT_FIELDS,
    AccountRow,
    ALL,
  )) {
    yield {
      id: String(a.id),
      name: a.name,
      code: a.code ?? '',
      classification: classify(a.type, types),
      active: a.active && !a.closed,
      hidden: false,
    };
  }
}

export async function* readCustomFields(m: TrytonModels): AsyncIterable<CustomField> {
  for await (const root of m.searchAll(
    'analytic_account.account',
    [['type', '=', 'root']],
    ANALYTIC_FIELDS,
    AnalyticRow,
    ALL,
  )) {
    yield {
      id: String(root.id),
      name: root.name,
      inputType: 'SINGLE_CHOICE',
      active: root.active && root.state === 'opened',
      hidden: false,
      requiredFor: ANALYTIC_KINDS,
    };
  }
}

export async function* readFieldOptions(m: TrytonModels, fieldId: string): AsyncIterable<FieldOption> {
  if (!/^\d+$/.test(fieldId)) return;
  const domain = [
    ['root', '=', Number(fieldId)],
    ['type', '=', 'normal'],
  ];
  for await (const o of m.searchAll('analytic_account.account', domain, ANALYTIC_FIELDS, AnalyticRow, ALL)) {
    yield {
      fieldId,
      id: String(o.id),
      value: o.name,
      code: o.code ?? '',
      active: o.active && o.state === 'opened',
      hidden: false,
    };
  }
}

export async function* readVendors(m: TrytonModels): AsyncIterable<ErpVendor> {
  // The companies' own parties are not suppliers.
  const companies = await m.searchRead('company.company', [], ['party'], CompanyParty);
  const own = companies.map((c) => c.party);
  for await (const p of m.searchAll('party.party', [['id', 'not in', own]], PARTY_FIELDS, PartyRow, ALL)) {
    yield {
      id: String(p.id),
      name: p.name || p.code || `Party ${p.id}`,
      code: p.code ?? '',
      active: p.active,
    };
  }
}

export async function* readTaxRates(m: TrytonModels): AsyncIterable<TaxRate> {
  const domain = [
    ['type', '=', 'percentage'],
    ['invoice_account', '!=', null],
  ];
  for await (const t of m.searchAll('account.tax', domain, TAX_FIELDS, TaxRow, ALL)) {
    yield {
      id: String(t.id),
      name: t.name,
      rate: normaliseRate(t.rate ?? '0'),
      glAccountId: String(t.invoice_account),
    };
  }
}

/** The percentage taxes a tax applies: itself, or its children for a group. */
export function leafRates(tax: TaxRow, byId: Map<number, TaxRow>): TaxRow[] {
  if (tax.type === 'percentage') return tax.invoice_account === null ? [] : [tax];
  return tax.childs.flatMap((child) => {
    const row = byId.get(child);
    return row ? leafRates(row, byId) : [];
  });
}

export async function* readTaxCodes(m: TrytonModels): AsyncIterable<TaxCode> {
  const all = await m.searchRead('account.tax', [], TAX_FIELDS, TaxRow, ALL);
  const byId = new Map(all.map((t) => [t.id, t]));
  for (const t of all) {
    if (t.parent !== null) continue;
    const rates = leafRates(t, byId);
    if (rates.length === 0) continue;
    yield { id: String(t.id), name: t.name, rateIds: rates.map((r) => String(r.id)), active: t.active };
  }
}
