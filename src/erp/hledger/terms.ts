import { roleLabel } from '../core/roles.ts';
import type { ErpTerms } from '../core/terms.ts';
import { CHART_TAG } from './books.ts';

/**
 * hledger's words for the posting core's refusals (core/refusals.ts). What hledger itself lacks
 * (inactive flags, roles, a lock date) lives in the journal's chart declaration (books.ts), so
 * the fixes say which tag to change there.
 */
export const HLEDGER_TERMS: ErpTerms = {
  erp: 'hledger',
  scope: '',
  addBooks: () => `declare the book currency with a currency: tag on the journal's ${CHART_TAG}: transaction`,
  // A closed "period" is everything up to the closed-until: date: "reopen the books up to …".
  periodNoun: 'the books ',
  inactiveAccount: 'marked inactive',
  reactivateAccountHint: ` (remove the inactive: tag of its posting in the ${CHART_TAG}: transaction)`,
  noDefault: (role) => ({
    title: `The hledger journal declares no ${roleLabel(role)} account`,
    fix: `tag the ${roleLabel(role)} account's posting in the journal's ${CHART_TAG}: transaction with role:${role}`,
  }),
  vendor: 'vendor account',
  taxCode: 'tax account',
  taxRate: 'tax rate',
  unusableTaxCode: '',
  field: 'dimension',
  option: 'value',
  closedDimension: 'inactive',
  reopenDimension: 'reactivate',
  vendorCredit: 'a vendor credit in hledger',
};
