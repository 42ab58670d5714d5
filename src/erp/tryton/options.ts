import type { Logger } from '../../log.ts';
import type { DefaultRole } from '../core/roles.ts';
import type { TrytonConnection } from './rpc.ts';

/** A Tryton company as configuration names it: its record id, or its (party's) name. */
export type CompanyRef = { id: number } | { name: string };

/** How the Tryton adapter reaches Tryton and which of its accounts and journal it posts with. */
export interface TrytonErpOptions extends TrytonConnection {
  /** Code of the journal moves are posted in (default SVC; invoices use Tryton's expense journal). */
  journalCode?: string;
  /**
   * Account codes of the posting defaults, by role, looked up in the chart of the company an
   * object is posted to; the rest come from DEFAULT_ROLE_CODES, and accounts payable from the
   * company's default payable account (Tryton's account configuration).
   */
  defaults?: Partial<Record<DefaultRole, string>>;
  /**
   * Several companies in one database: the company each platform entity is booked in. Unset,
   * every object goes to the Tryton user's current company, whose party lists the entities it
   * keeps as identifiers (see docs/tryton.md).
   */
  companyByEntity?: Readonly<Record<string, CompanyRef>>;
  /**
   * Public root of the Tryton web client for deep links (ERP_PUBLIC_URL). Unset: bills are
   * reported without one (docs/platform.md F42: the JSON-RPC URL is often internal).
   */
  deepLinkBase?: string;
  /**
   * Calls in flight at once within a postMany call: batches of new moves or invoices, or single
   * writes (TRYTON_CONCURRENCY, default DEFAULT_TRYTON_CONCURRENCY).
   */
  concurrency?: number;
  /** New moves or invoices per create call (default TRYTON_BATCH_SIZE, write-batch.ts). */
  batchSize?: number;
  log?: Logger;
}

export const DEFAULT_JOURNAL_CODE = 'SVC';

/**
 * One call at a time: a single trytond process computes on one core, so a second call in flight
 * only waits for it and makes posting slower (docs/tryton.md has the figures); raise it when
 * Tryton runs several worker processes.
 */
export const DEFAULT_TRYTON_CONCURRENCY = 1;

/** Posting defaults found by account code when the options name none (see docs/tryton.md). */
export const DEFAULT_ROLE_CODES: Record<Exclude<DefaultRole, 'accounts_payable'>, string> = {
  card_liability: '2100',
  employee_payable: '2150',
  bank: '1010',
  cashback_income: '4900',
};

/** The settings of src/config.ts the adapter takes (ERP=tryton), by their variable names. */
export interface TrytonSettings {
  TRYTON_URL?: string | undefined;
  TRYTON_DATABASE?: string | undefined;
  TRYTON_USER?: string | undefined;
  TRYTON_PASSWORD?: string | undefined;
  TRYTON_COMPANY_BY_ENTITY?: Readonly<Record<string, CompanyRef>> | undefined;
  TRYTON_JOURNAL_CODE?: string | undefined;
  TRYTON_CARD_LIABILITY_ACCOUNT_CODE?: string | undefined;
  TRYTON_EMPLOYEE_PAYABLE_ACCOUNT_CODE?: string | undefined;
  TRYTON_BANK_ACCOUNT_CODE?: string | undefined;
  TRYTON_CASHBACK_INCOME_ACCOUNT_CODE?: string | undefined;
  TRYTON_ACCOUNTS_PAYABLE_ACCOUNT_CODE?: string | undefined;
  ERP_PUBLIC_URL?: string | undefined;
  TRYTON_CONCURRENCY?: number | undefined;
}

/** The adapter's options from the configuration (loadConfig has checked the four required). */
export function trytonOptionsFrom(settings: TrytonSettings): Omit<TrytonErpOptions, 'log'> {
  const codes: [DefaultRole, string | undefined][] = [
    ['card_liability', settings.TRYTON_CARD_LIABILITY_ACCOUNT_CODE],
    ['employee_payable', settings.TRYTON_EMPLOYEE_PAYABLE_ACCOUNT_CODE],
    ['bank', settings.TRYTON_BANK_ACCOUNT_CODE],
    ['cashback_income', settings.TRYTON_CASHBACK_INCOME_ACCOUNT_CODE],
    ['accounts_payable', settings.TRYTON_ACCOUNTS_PAYABLE_ACCOUNT_CODE],
  ];
  const defaults: Partial<Record<DefaultRole, string>> = {};
  for (const [role, code] of codes) if (code) defaults[role] = code;
  return {
    url: settings.TRYTON_URL ?? '',
    database: settings.TRYTON_DATABASE ?? '',
    user: settings.TRYTON_USER ?? '',
    password: settings.TRYTON_PASSWORD ?? '',
    journalCode: settings.TRYTON_JOURNAL_CODE ?? DEFAULT_JOURNAL_CODE,
    defaults,
    ...(settings.TRYTON_COMPANY_BY_ENTITY ? { companyByEntity: settings.TRYTON_COMPANY_BY_ENTITY } : {}),
    ...(settings.ERP_PUBLIC_URL ? { deepLinkBase: settings.ERP_PUBLIC_URL } : {}),
    concurrency: settings.TRYTON_CONCURRENCY ?? DEFAULT_TRYTON_CONCURRENCY,
  };
}

/** The variable that sets each role's account code, for messages that tell how to change it. */
export const ROLE_SETTING: Record<DefaultRole, string> = {
  card_liability: 'TRYTON_CARD_LIABILITY_ACCOUNT_CODE',
  employee_payable: 'TRYTON_EMPLOYEE_PAYABLE_ACCOUNT_CODE',
  bank: 'TRYTON_BANK_ACCOUNT_CODE',
  cashback_income: 'TRYTON_CASHBACK_INCOME_ACCOUNT_CODE',
  accounts_payable: 'TRYTON_ACCOUNTS_PAYABLE_ACCOUNT_CODE',
};
