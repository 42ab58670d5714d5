import { z } from 'zod';
import type { ErpErrorInfo } from '../errors.ts';
import type { ErpWrite } from '../types.ts';
import type { TrytonModels } from './models.ts';
import type { CompanyRef } from './options.ts';
import { refuseSetting } from './setting-refusals.ts';

/**
 * The Tryton companies the adapter posts to, and which one each object goes to.
 *
 * Without a mapping (one company): every object goes to the Tryton user's current company, and
 * an object's entity must be listed as an identifier of that company's party.
 *
 * With TRYTON_COMPANY_BY_ENTITY (several companies in one database): each platform entity goes
 * to the company the mapping names, by id or by name; objects without an entity, and vendors
 * (parties are shared by all companies), go to the current company. An entity the mapping does
 * not list, a company Tryton does not have, one the user may not work in, or a user shown its
 * current company's records only, fails the object with a message that says what to change.
 *
 * Tryton 6.0's record rules show a user the records of the companies its stored Company Filter
 * names (its current company, or all its companies), whatever company a call's context names:
 * so posting to a company other than the current one needs the filter set to All. The calls for
 * a company still name it in their context (TrytonModels.forCompany), which is where Tryton
 * takes per-company values from (the default payable account) and the default company of new
 * records; and every search names its company explicitly.
 */

export interface CompanyInfo {
  id: number;
  name: string;
  partyId: number;
  currencyId: number;
  currencyCode: string;
  digits: number;
}

export type Route = { ok: true; company: CompanyInfo } | { ok: false; error: ErpErrorInfo };

export interface Companies {
  /** The Tryton user's current company. */
  current: CompanyInfo;
  /** Every company the adapter works in: the current one, then each mapped one, by id. */
  all: CompanyInfo[];
  /** Whether TRYTON_COMPANY_BY_ENTITY is set. */
  mapped: boolean;
  /** The parties of every company in the database (they are not suppliers). */
  companyParties: number[];
  route(input: Pick<ErpWrite, 'kind'> & { entityId?: string | null }): Route;
}

const ALL = { context: { active_test: false } };
const Company = z.object({ id: z.number().int(), party: z.number().int(), currency: z.number().int() });
const Named = z.object({ id: z.number().int(), name: z.string() });
const CurrencyRow = z.object({ id: z.number().int(), code: z.string(), digits: z.number().int() });
const UserCompanies = z.looseObject({ companies: z.array(z.number().int()).optional() });
const Filter = z.looseObject({ company_filter: z.string().nullable().optional() });

/** Calls working in one company, and that company. */
export interface CompanyScope {
  m: TrytonModels;
  company: CompanyInfo;
}

/** A scope per company the adapter works in; the current company's calls are the user's own. */
export function companyScopes(m: TrytonModels, companies: Companies): CompanyScope[] {
  return companies.all.map((company) => ({
    m: company === companies.current ? m : m.forCompany(company.id),
    company,
  }));
}

type Resolved = { ok: true; company: CompanyInfo } | { ok: false; error: ErpErrorInfo };

function describeRef(ref: CompanyRef): string {
  return 'id' in ref ? `id ${ref.id}` : `"${ref.name}"`;
}

/** The companies the user may work in (preferences with every field, as the client reads them). */
async function allowedCompanies(m: TrytonModels): Promise<Set<number>> {
  const raw = await m.rpc.call('model.res.user.get_preferences', [false, {}]);
  const parsed = UserCompanies.safeParse(raw);
  return new Set(parsed.success ? (parsed.data.companies ?? []) : []);
}

async function loadCompanies(
  m: TrytonModels,
  byEntity: Readonly<Record<string, CompanyRef>> | undefined,
): Promise<Companies> {
  const preferences = await m.context();
  const currentId = typeof preferences.company === 'number' ? preferences.company : null;
  const filtered = Filter.safeParse(preferences);
  const seesAll = filtered.success && filtered.data.company_filter === 'all';
  const [rows, allowed] = await Promise.all([
    m.searchRead('company.company', [], ['party', 'currency'], Company),
    byEntity ? allowedCompanies(m) : Promise.resolve(null),
  ]);
  const currentRow = rows.find((r) => r.id === currentId);
  if (!currentRow) throw new Error('the Tryton user has no current company');
  const [parties, currencies] = await Promise.all([
    m.searchRead('party.party', [['id', 'in', rows.map((r) => r.party)]], ['name'], Named, ALL),
    m.searchRead(
      'currency.currency',
      [['id', 'in', [...new Set(rows.map((r) => r.currency))]]],
      ['code', 'digits'],
      CurrencyRow,
      ALL,
    ),
  ]);
  const info = (row: z.infer<typeof Company>): CompanyInfo => {
    const currency = currencies.find((c) => c.id === row.currency);
    return {
      id: row.id,
      name: parties.find((p) => p.id === row.party)?.name ?? `company ${row.id}`,
      partyId: row.party,
      currencyId: row.currency,
      currencyCode: currency?.code ?? '',
      digits: currency?.digits ?? 2,
    };
  };
  const companies = rows.map(info);
  const current = companies.find((c) => c.id === currentId)!;

  const resolved = new Map<string, Resolved>();
  for (const [entityId, ref] of Object.entries(byEntity ?? {})) {
    const matches = companies.filter((c) => ('id' in ref ? c.id === ref.id : c.name === ref.name));
    if (matches.length !== 1) {
      resolved.set(entityId, {
        ok: false,
        error: refuseSetting.unknownCompany(entityId, describeRef(ref), matches.length > 1),
      });
    } else if (allowed && !allowed.has(matches[0]!.id)) {
      resolved.set(entityId, { ok: false, error: refuseSetting.companyNotAllowed(matches[0]!.name) });
    } else if (matches[0] !== current && !seesAll) {
      resolved.set(entityId, { ok: false, error: refuseSetting.companyFilterCurrent(matches[0]!.name) });
    } else resolved.set(entityId, { ok: true, company: matches[0]! });
  }
  const all = [current];
  for (const r of resolved.values()) {
    if (r.ok && !all.some((c) => c.id === r.company.id)) all.push(r.company);
  }
  all.sort((a, b) => (a === current ? -1 : b === current ? 1 : a.id - b.id));

  return {
    current,
    all,
    mapped: byEntity !== undefined,
    companyParties: rows.map((r) => r.party),
    route(input) {
      if (!byEntity || input.kind === 'vendor' || !input.entityId) return { ok: true, company: current };
      return (
        resolved.get(input.entityId) ?? { ok: false, error: refuseSetting.unmappedEntity(input.entityId) }
      );
    },
  };
}

/**
 * The companies, read again at most once a minute: a company's name, currency or the user's
 * access change rarely, and a batch then costs no calls for them. (Which entities a single
 * company keeps is read with every batch: context.ts.)
 */
export class CompaniesCache {
  private cached: { at: number; value: Promise<Companies> } | undefined;

  constructor(
    private readonly m: TrytonModels,
    private readonly byEntity: Readonly<Record<string, CompanyRef>> | undefined,
    private readonly ttlMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  get(): Promise<Companies> {
    const cached = this.cached;
    if (cached && this.now() - cached.at < this.ttlMs) return cached.value;
    const value = loadCompanies(this.m, this.byEntity);
    const entry = { at: this.now(), value };
    this.cached = entry;
    value.catch(() => {
      if (this.cached === entry) this.cached = undefined;
    });
    return value;
  }
}
