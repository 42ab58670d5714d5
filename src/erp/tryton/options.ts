import type { Logger } from '../../log.ts';
import type { DefaultRole } from '../ledger/model.ts';
import type { TrytonConnection } from './rpc.ts';

/** How the Tryton adapter reaches Tryton and which of its accounts and journal it posts with. */
export interface TrytonErpOptions extends TrytonConnection {
  /** Code of the journal moves are posted in (default SVC; invoices use Tryton's expense journal). */
  journalCode?: string;
  /**
   * Account codes of the posting defaults, by role; the rest come from DEFAULT_ROLE_CODES, and
   * accounts payable from Tryton's own default payable account (account configuration).
   */
  defaults?: Partial<Record<DefaultRole, string>>;
  /** Root of the Tryton web client for deep links (default: the JSON-RPC URL's root). */
  deepLinkBase?: string;
  /** Objects written at once within a postMany call (default 4). */
  concurrency?: number;
  log?: Logger;
}

export const DEFAULT_JOURNAL_CODE = 'SVC';

/** Posting defaults found by account code when the options name none (see docs/tryton.md). */
export const DEFAULT_ROLE_CODES: Record<Exclude<DefaultRole, 'accounts_payable'>, string> = {
  card_liability: '2100',
  employee_payable: '2150',
  bank: '1010',
  cashback_income: '4900',
};
