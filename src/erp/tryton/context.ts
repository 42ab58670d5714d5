import { z } from 'zod';
import type { DefaultRole } from '../core/roles.ts';
import type { ErpWrite } from '../types.ts';
import { type ActiveWindow, activeWindow } from './active-window.ts';
import type { CompanyInfo } from './companies.ts';
import { billKey, type RecordKey } from './keys.ts';
import type { TrytonModels } from './models.ts';
import { DEFAULT_ROLE_CODES } from './options.ts';
import {
  ACCOUNT_FIELDS,
  AccountRow,
  ANALYTIC_FIELDS,
  AnalyticRow,
  INVOICE_FIELDS,
  InvoiceRow,
  PARTY_FIELDS,
  PartyRow,
  PERIOD_FIELDS,
  PeriodRow,
  TAX_FIELDS,
  TaxRow,
  TYPE_FIELDS,
  TypeRow,
} from './rows.ts';

/**
 * What one batch of writes into one company refers to in Tryton, read in a few parallel calls
 * before anything is written, with `m` working in that company and every search naming it: its
 * accounts, parties, taxes and analytic accounts the objects name, its periods, the journals, its
 * posting defaults and the invoices that payments pay. The checks and plans work on it without
 * further calls.
 */

export interface TrytonContext {
  company: CompanyInfo;
  /**
   * One company: the platform entity ids listed as identifiers of its party (its books). Null
   * when TRYTON_COMPANY_BY_ENTITY routes entities instead (companies.ts).
   */
  entityIds: Set<string> | null;
  /** Set when several companies keep books: messages then name the company they mean. */
  companyLabel: string | null;
  accounts: Map<string, AccountRow>;
  /** The fiscal year of today: accounts whose dates miss it are inactive (active-window.ts). */
  activeWindow: ActiveWindow;
  types: Map<number, TypeRow>;
  parties: Map<string, PartyRow>;
  taxes: Map<number, TaxRow>;
  analytic: Map<string, AnalyticRow>;
  periods: PeriodRow[];
  journalId: number | null;
  journalCode: string;
  expenseJournalId: number | null;
  /** Account id per role, or the code that was looked for in vain. */
  roles: Map<DefaultRole, { id: string } | { missing: string | undefined }>;
  /** Invoices of the bills that payments in the batch pay, by the bill's object id. */
  bills: Map<string, InvoiceRow>;
}

const ALL = { context: { active_test: false } };
const Identifier = z.object({ code: z.string() });
const Journal = z.object({ id: z.number().int(), code: z.string().nullable(), type: z.string() });
const Configuration = z.object({ default_account_payable: z.number().int().nullable() });

const numericIds = (ids: Iterable<string>) => [...new Set(ids)].filter((id) => /^\d+$/.test(id)).map(Number);

interface Wanted {
  accounts: string[];
  parties: string[];
  analytic: string[];
  bills: RecordKey[];
}

function wantedBy(items: readonly ErpWrite[]): Wanted {
  const wanted: Wanted = { accounts: [], parties: [], analytic: [], bills: [] };
  for (const item of items) {
    if (item.kind === 'vendor') continue;
    if (item.kind === 'bill_payment') wanted.bills.push(billKey(item.billObjectId));
    if (item.kind === 'bill') wanted.parties.push(item.vendorId);
    for (const id of [
      'liabilityAccountId' in item ? item.liabilityAccountId : undefined,
      'payableAccountId' in item ? item.payableAccountId : undefined,
      'bankAccountId' in item ? item.bankAccountId : undefined,
      'incomeAccountId' in item ? item.incomeAccountId : undefined,
    ]) {
      if (id) wanted.accounts.push(id);
    }
    for (const line of 'lines' in item ? item.lines : []) {
      wanted.accounts.push(line.glAccountId);
      if (line.vendorId) wanted.parties.push(line.vendorId);
      wanted.analytic.push(...Object.keys(line.dimensions), ...Object.values(line.dimensions));
    }
  }
  return wanted;
}

async function loadRoles(
  m: TrytonModels,
  company: CompanyInfo,
  codes: Partial<Record<DefaultRole, string>>,
): Promise<{ roles: TrytonContext['roles']; rows: AccountRow[] }> {
  const wantedCodes = { ...DEFAULT_ROLE_CODES, ...codes };
  const list = Object.values(wantedCodes);
  // The configuration's default payable account is a per-company value: `m` works in the company.
  const [rows, [configuration]] = await Promise.all([
    m.searchRead(
      'account.account',
      [
        ['company', '=', company.id],
        ['code', 'in', list],
      ],
      ACCOUNT_FIELDS,
      AccountRow,
      ALL,
    ),
    m.searchRead('account.configuration', [['id', '=', 1]], ['default_account_payable'], Configuration),
  ]);
  const roles: TrytonContext['roles'] = new Map();
  for (const [role, code] of Object.entries(wantedCodes) as [DefaultRole, string][]) {
    const row = rows.find((r) => r.code === code);
    roles.set(role, row ? { id: String(row.id) } : { missing: code });
  }
  if (!codes.accounts_payable) {
    const payable = configuration?.default_account_payable;
    roles.set('accounts_payable', payable ? { id: String(payable) } : { missing: undefined });
  }
  return { roles, rows };
}

export interface ContextOptions {
  journalCode: string;
  defaults: Partial<Record<DefaultRole, string>>;
  /** Several companies keep books: refusals name the company. */
  severalCompanies: boolean;
  /** No company mapping: the company's party lists the entities it keeps. */
  entitiesListed: boolean;
}

/** `m` works in `company` (TrytonModels.forCompany, or the user's current company). */
export async function loadContext(
  m: TrytonModels,
  company: CompanyInfo,
  items: readonly ErpWrite[],
  options: ContextOptions,
): Promise<TrytonContext> {
  const wanted = wantedBy(items);
  const own = ['company', '=', company.id];
  const [identifiers, roles, window, types, periods, journals, taxes] = await Promise.all([
    options.entitiesListed
      ? m.searchRead('party.identifier', [['party', '=', company.partyId]], ['code'], Identifier)
      : Promise.resolve(null),
    loadRoles(m, company, options.defaults),
    activeWindow(m, company.id),
    m.searchRead('account.account.type', [own], TYPE_FIELDS, TypeRow, ALL),
    m.searchRead(
      'account.period',
      [
        ['type', '=', 'standard'],
        ['fiscalyear.company', '=', company.id],
      ],
      PERIOD_FIELDS,
      PeriodRow,
    ),
    m.searchRead('account.journal', [], ['code', 'type'], Journal, ALL),
    m.searchRead('account.tax', [own], TAX_FIELDS, TaxRow, ALL),
  ]);
  const roleIds = [...roles.roles.values()].flatMap((r) => ('id' in r ? [r.id] : []));
  const taxAccounts = taxes.flatMap((t) => (t.invoice_account === null ? [] : [String(t.invoice_account)]));
  const [accounts, parties, analytic, bills] = await Promise.all([
    m.searchRead(
      'account.account',
      [own, ['id', 'in', numericIds([...wanted.accounts, ...roleIds, ...taxAccounts])]],
      ACCOUNT_FIELDS,
      AccountRow,
      ALL,
    ),
    m.searchRead('party.party', [['id', 'in', numericIds(wanted.parties)]], PARTY_FIELDS, PartyRow, ALL),
    m.searchRead(
      'analytic_account.account',
      [own, ['OR', ['id', 'in', numericIds(wanted.analytic)], ['type', '=', 'root']]],
      ANALYTIC_FIELDS,
      AnalyticRow,
      ALL,
    ),
    wanted.bills.length === 0
      ? Promise.resolve([])
      : m.searchRead(
          'account.invoice',
          [own, ['type', '=', 'in'], ['description', 'in', wanted.bills.map((k) => k.text)]],
          INVOICE_FIELDS,
          InvoiceRow,
        ),
  ]);
  const billsByObject = new Map<string, InvoiceRow>();
  for (const key of wanted.bills) {
    const invoice = bills.find((b) => b.description === key.text);
    if (invoice) billsByObject.set(key.objectId, invoice);
  }
  return {
    company,
    entityIds: identifiers ? new Set(identifiers.map((i) => i.code)) : null,
    companyLabel: options.severalCompanies ? company.name : null,
    accounts: new Map(accounts.map((a) => [String(a.id), a])),
    activeWindow: window,
    types: new Map(types.map((t) => [t.id, t])),
    parties: new Map(parties.map((p) => [String(p.id), p])),
    taxes: new Map(taxes.map((t) => [t.id, t])),
    analytic: new Map(analytic.map((a) => [String(a.id), a])),
    periods,
    journalId: journals.find((j) => j.code === options.journalCode)?.id ?? null,
    journalCode: options.journalCode,
    expenseJournalId: journals.find((j) => j.type === 'expense')?.id ?? null,
    roles: roles.roles,
    bills: billsByObject,
  };
}
