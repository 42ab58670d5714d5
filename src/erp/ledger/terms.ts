import { roleLabel } from '../core/roles.ts';
import type { ErpTerms } from '../core/terms.ts';

/** The ledger's words for the posting core's refusals (core/refusals.ts). */
export const LEDGER_TERMS: ErpTerms = {
  erp: 'the ledger',
  scope: '',
  addBooks: () =>
    'add the entity to the ledger with its book currency, or move the object to an entity the ledger keeps',
  periodNoun: '',
  inactiveAccount: 'inactive',
  reactivateAccountHint: '',
  noDefault: (role) => ({
    title: `The ledger has no ${roleLabel(role)} account set`,
    fix: `set the ${roleLabel(role)} account in the ledger's posting defaults`,
  }),
  vendor: 'vendor',
  taxCode: 'tax code',
  taxRate: 'tax rate',
  unusableTaxCode: '',
  field: 'custom field',
  option: 'option',
  closedDimension: 'inactive',
  reopenDimension: 'reactivate',
  vendorCredit: 'a vendor credit in the ledger',
};

/** The ledger closes periods by month: a closed period is named by its month ("December 2024"). */
export function monthName(isoDate: string): string {
  const [year, month] = isoDate.split('-');
  const name = new Date(Date.UTC(Number(year), Number(month) - 1, 1)).toLocaleString('en-US', {
    month: 'long',
    timeZone: 'UTC',
  });
  return `${name} ${year}`;
}
