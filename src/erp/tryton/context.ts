import { z } from 'zod';
import type { DefaultRole } from '../ledger/model.ts';
import type { ErpWrite } from '../types.ts';
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
 * What one batch of writes refers to in Tryton, read in a few parallel calls before anything is
 * written: the company and its book currency, the accounts, parties, taxes and analytic
 * accounts the objects name, the periods, the journals, the posting defaults and the invoices
 * that payments pay. The checks and plans work on it without further calls.
 */

export interface CompanyInfo {
  id: number;
  name: string;
  currencyId: number;
  currencyCode: string;
  digits: number;
  /** Platform entity ids whose books this company keeps (identifiers of its party). */
  entityIds: Set<string>;
}

export interface TrytonContext {
  company: CompanyInfo;
  accounts: Map<string, AccountRow>;
  types: Map<number, TypeRow>;
  parties: Map<string, PartyRow>;
  taxes: Map<number, TaxRow>;
  analytic: Map<string, AnalyticRow>;
  periods: PeriodRow[];
  journalId: number | null;
  expenseJournalId: number | null;
  /** Account id per role, or the code that was looked for in vain. */
  roles: Map<DefaultRole, { id: string } | { missing: string | undefined }>;
  /** Invoices of the bills that payments in the batch pay, by the bill's object id. */
  bills: Map<string, InvoiceRow>;
}

const ALL = { context: { active_test: false } };
const Company = z.object({ id: z.number().int(), party: z.number().int(), currency: z.number().int() });
const Named = z.object({ id: z.number().int(), name: z.string() });
const Identifier = z.object({ code: z.string() });
const CurrencyRow = z.object({ id: z.number().int(), code: z.string(), digits: z.number().int() });
const Journal = z.object({ id: z.number().int(), code: z.string().nullable(), type: z.string() });
const Configuration = z.object({ default_account_payable: z.number().int().nullable() });

const numericIds = (ids: Iterable<string>) => [...new Set(ids)].filter((id) => /^\d+$/.test(id)).map(Number);

async function loadCompany(m: TrytonModels): Promise<CompanyInfo> {
  const preferences = await m.context();
  const [company] = await m.searchRead(
    'company.company',
    [['id', '=', preferences.company ?? -1]],
    ['party', 'currency'],
    Company,
  );
  if (!company) throw new Error('the Tryton user has no current company');
  const [[party], identifiers, [currency]] = await Promise.all([
    m.searchRead('party.party', [['id', '=', company.party]], ['name'], Named, ALL),
    m.searchRead('party.identifier', [['party', '=', company.party]], ['code'], Identifier),
    m.searchRead('currency.currency', [['id', '=', company.currency]], ['code', 'digits'], CurrencyRow, ALL),
  ]);
  return {
    id: company.id,
    name: party?.name ?? `company ${company.id}`,
    currencyId: company.currency,
    currencyCode: currency?.code ?? '',
    digits: currency?.digits ?? 2,
    entityIds: new Set(identifiers.map((i) => i.code)),
  };
}

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
  codes: Partial<Record<DefaultRole, string>>,
): Promise<{ roles: TrytonContext['roles']; rows: AccountRow[] }> {
  const wantedCodes = { ...DEFAULT_ROLE_CODES, ...codes };
  const list = Object.values(wantedCodes);
  const [rows, [configuration]] = await Promise.all([
    m.searchRead('account.account', [['code', 'in', list]], ACCOUNT_FIELDS, AccountRow, ALL),
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

export async function loadContext(
  m: TrytonModels,
  items: readonly ErpWrite[],
  options: { journalCode: string; defaults: Partial<Record<DefaultRole, string>> },
): Promise<TrytonContext> {
  const wanted = wantedBy(items);
  const [company, roles, types, periods, journals, taxes] = await Promise.all([
    loadCompany(m),
    loadRoles(m, options.defaults),
    m.searchRead('account.account.type', [], TYPE_FIELDS, TypeRow, ALL),
    m.searchRead('account.period', [['type', '=', 'standard']], PERIOD_FIELDS, PeriodRow),
    m.searchRead('account.journal', [], ['code', 'type'], Journal, ALL),
    m.searchRead('account.tax', [], TAX_FIELDS, TaxRow, ALL),
  ]);
  const roleIds = [...roles.roles.values()].flatMap((r) => ('id' in r ? [r.id] : []));
  const taxAccounts = taxes.flatMap((t) => (t.invoice_account === null ? [] : [String(t.invoice_account)]));
  const [accounts, parties, analytic, bills] = await Promise.all([
    m.searchRead(
      'account.account',
      [['id', 'in', numericIds([...wanted.accounts, ...roleIds, ...taxAccounts])]],
      ACCOUNT_FIELDS,
      AccountRow,
      ALL,
    ),
    m.searchRead('party.party', [['id', 'in', numericIds(wanted.parties)]], PARTY_FIELDS, PartyRow, ALL),
    m.searchRead(
      'analytic_account.account',
      ['OR', ['id', 'in', numericIds(wanted.analytic)], ['type', '=', 'root']],
      ANALYTIC_FIELDS,
      AnalyticRow,
      ALL,
    ),
    wanted.bills.length === 0
      ? Promise.resolve([])
      : m.searchRead(
          'account.invoice',
          [
            ['type', '=', 'in'],
            ['description', 'in', wanted.bills.map((k) => k.text)],
          ],
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
    accounts: new Map(accounts.map((a) => [String(a.id), a])),
    types: new Map(types.map((t) => [t.id, t])),
    parties: new Map(parties.map((p) => [String(p.id), p])),
    taxes: new Map(taxes.map((t) => [t.id, t])),
    analytic: new Map(analytic.map((a) => [String(a.id), a])),
    periods,
    journalId: journals.find((j) => j.code === options.journalCode)?.id ?? null,
    expenseJournalId: journals.find((j) => j.type === 'expense')?.id ?? null,
    roles: roles.roles,
    bills: billsByObject,
  };
}
