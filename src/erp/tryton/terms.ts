import { roleLabel } from '../core/roles.ts';
import type { ErpTerms } from '../core/terms.ts';
import { ROLE_SETTING } from './options.ts';

/**
 * Tryton's words for the posting core's refusals (core/refusals.ts): account code and name,
 * party, tax, analytic axis and account, period. `company` names the company whose books an
 * object goes to; `several` makes messages say which company's chart they mean.
 */
export function trytonTerms(company: string | null, several: boolean): ErpTerms {
  const scope = several && company ? ` of company ${company}` : '';
  return {
    erp: 'Tryton',
    scope,
    addBooks: (entityId) =>
      `add ${entityId} as an identifier of the party of company ${company} in Tryton, or move the object to an entity whose books Tryton keeps`,
    periodNoun: 'period ',
    inactiveAccount: 'closed or inactive',
    reactivateAccountHint: ' (untick Closed)',
    noDefault: (role, code) =>
      code
        ? {
            title: `Tryton has no ${roleLabel(role)} account with code ${code}${scope}`,
            fix: `create the ${roleLabel(role)} account with code ${code}${scope} in Tryton, or have your integrator set ${ROLE_SETTING[role]} to the code of another account`,
          }
        : {
            title: `Tryton has no default ${roleLabel(role)} account set${scope ? ` for company ${company}` : ''}`,
            fix: `set the default ${roleLabel(role)} account in Tryton's account configuration, or have your integrator set ${ROLE_SETTING[role]}`,
          },
    vendor: 'party',
    taxCode: 'tax',
    taxRate: 'tax',
    unusableTaxCode: ', or it has no percentage rate with an account',
    field: 'analytic axis',
    option: 'analytic account',
    closedDimension: 'not open',
    reopenDimension: 'open',
    vendorCredit: 'a supplier credit note in Tryton',
  };
}
