import type {
  CustomField,
  ErpVendor,
  FieldOption,
  GlAccount,
  GlClassification,
  TaxCode,
  TaxRate,
} from '../chart.ts';
import { activeWindow, isActive } from './active-window.ts';
import { normaliseRate } from './codec.ts';
import { type Companies, type CompanyInfo, companyScopes } from './companies.ts';
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
 *
 * One company: the user's current company's chart, as Tryton names it. Several companies
 * (TRYTON_COMPANY_BY_ENTITY): the charts of all of them, one after the other, each name followed
 * by its company's in brackets, since their codes and names usually repeat.
 */

/** One company's chart: calls working in that company, and what its names end with. */
export interface ChartScope {
  m: TrytonModels;
  company: CompanyInfo;
  suffix: string;
}

export function chartScopes(m: TrytonModels, companies: Companies): ChartScope[] {
  const several = companies.all.length > 1;
  return companyScopes(m, companies).map((s) => ({ ...s, suffix: several ? ` (${s.company.name})` : '' }));
}

/** Inactive records too: the platform keeps them, flagged. */
const ALL = { context: { active_test: false } };

/** Kinds whose lines carry analytic axes (Tryton expects every axis on income lines). */
const ANALYTIC_KINDS = ['card_transaction', 'reimbursement', 'bill'];

async function readTypes(m: TrytonModels): Promise<Map<number, TypeRow>> {
  const rows = await m.searchRead('account.account.type', [], TYPE_FIELDS, TypeRow, ALL);
  return new Map(rows.map((t) => [t.id, t]));
}

const own = (scope: ChartScope) => ['company', '=', scope.company.id];

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

export async function* readGlAccounts(scopes: ChartScope[]): AsyncIterable<GlAccount> {
  for (const scope of scopes) {
    const { m } = scope;
    const [types, window] = await Promise.all([readTypes(m), activeWindow(m, scope.company.id)]);
    for await (const a of m.searchAll(
      'account.account',
      [own(scope), ['type', '!=', null]],
      ACCOUNT_FIELDS,
      AccountRow,
      ALL,
    )) {
      yield {
        id: String(a.id),
        name: `${a.name}${scope.suffix}`,
        code: a.code ?? '',
        classification: classify(a.type, types),
        active: isActive(a, window) && !a.closed,
        hidden: false,
      };
    }
  }
}

export async function* readCustomFields(scopes: ChartScope[]): AsyncIterable<CustomField> {
  for (const scope of scopes) yield* readScopeFields(scope);
}

async function* readScopeFields(scope: ChartScope): AsyncIterable<CustomField> {
  for await (const root of scope.m.searchAll(
    'analytic_account.account',
    [own(scope), ['type', '=', 'root']],
    ANALYTIC_FIELDS,
    AnalyticRow,
    ALL,
  )) {
    yield {
      id: String(root.id),
      name: `${root.name}${scope.suffix}`,
      inputType: 'SINGLE_CHOICE',
      active: root.active && root.state === 'opened',
      hidden: false,
      requiredFor: ANALYTIC_KINDS,
    };
  }
}

/** The axis belongs to one of the companies: its options are found in that company only. */
export async function* readFieldOptions(scopes: ChartScope[], fieldId: string): AsyncIterable<FieldOption> {
  if (!/^\d+$/.test(fieldId)) return;
  for (const scope of scopes) yield* readScopeOptions(scope, fieldId);
}

async function* readScopeOptions(scope: ChartScope, fieldId: string): AsyncIterable<FieldOption> {
  const domain = [own(scope), ['root', '=', Number(fieldId)], ['type', '=', 'normal']];
  for await (const o of scope.m.searchAll(
    'analytic_account.account',
    domain,
    ANALYTIC_FIELDS,
    AnalyticRow,
    ALL,
  )) {
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

/** Parties are shared by all companies; the companies' own parties are not suppliers. */
export async function* readVendors(m: TrytonModels, companies: Companies): AsyncIterable<ErpVendor> {
  const notSuppliers = companies.companyParties;
  for await (const p of m.searchAll(
    'party.party',
    [['id', 'not in', notSuppliers]],
    PARTY_FIELDS,
    PartyRow,
    ALL,
  )) {
    yield {
      id: String(p.id),
      name: p.name || p.code || `Party ${p.id}`,
      code: p.code ?? '',
      active: p.active,
    };
  }
}

export async function* readTaxRates(scopes: ChartScope[]): AsyncIterable<TaxRate> {
  for (const scope of scopes) yield* readScopeRates(scope);
}

async function* readScopeRates(scope: ChartScope): AsyncIterable<TaxRate> {
  const domain = [own(scope), ['type', '=', 'percentage'], ['invoice_account', '!=', null]];
  for await (const t of scope.m.searchAll('account.tax', domain, TAX_FIELDS, TaxRow, ALL)) {
    yield {
      id: String(t.id),
      name: `${t.name}${scope.suffix}`,
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

export async function* readTaxCodes(scopes: ChartScope[]): AsyncIterable<TaxCode> {
  for (const scope of scopes) {
    const all = await scope.m.searchRead('account.tax', [own(scope)], TAX_FIELDS, TaxRow, ALL);
    const byId = new Map(all.map((t) => [t.id, t]));
    for (const t of all) {
      if (t.parent !== null) continue;
      const rates = leafRates(t, byId);
      if (rates.length === 0) continue;
      const rateIds = rates.map((r) => String(r.id));
      yield { id: String(t.id), name: `${t.name}${scope.suffix}`, rateIds, active: t.active };
    }
  }
}
