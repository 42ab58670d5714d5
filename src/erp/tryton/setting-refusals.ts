import { type ErpErrorInfo, integratorReference, needsIntegrator } from '../errors.ts';

/**
 * What the Tryton adapter refuses for how it is set up rather than for an object's coding (those
 * are the posting core's: core/refusals.ts): an entity its settings do not map to a company, a
 * company its user may not post in, a missing journal. All are for the integrator.
 */

export const refuseSetting = {
  unmappedEntity: (entityId: string) =>
    needsIntegrator(
      'ENTITY_UNMAPPED',
      `Entity ${entityId} is not mapped to a Tryton company`,
      `add ${entityId}=<Tryton company id or name> to the setting TRYTON_COMPANY_BY_ENTITY of the sync, then sync again`,
      integratorReference('tryton', 'entity', entityId),
    ),
  unknownCompany: (entityId: string, company: string, ambiguous: boolean) =>
    needsIntegrator(
      'COMPANY_UNKNOWN',
      `The setting TRYTON_COMPANY_BY_ENTITY maps entity ${entityId} to company ${company}, which ${ambiguous ? 'names several companies' : 'is not a company'} in Tryton`,
      `correct ${entityId}=… in TRYTON_COMPANY_BY_ENTITY: a Tryton company id, or the exact name of one company`,
      integratorReference('tryton', 'company', entityId, company),
    ),
  companyNotAllowed: (companyName: string) =>
    needsIntegrator(
      'COMPANY_ACCESS_DENIED',
      `The Tryton user the sync works as may not work in company ${companyName}`,
      `add ${companyName} to the Companies of that user in Tryton`,
      integratorReference('tryton', 'company-access', companyName),
    ),
  companyFilterCurrent: (companyName: string) =>
    needsIntegrator(
      'COMPANY_FILTER_CURRENT',
      `The Tryton user the sync works as sees the records of its current company only, so it cannot post to company ${companyName}`,
      "set Company Filter to All in that user's preferences in Tryton",
      integratorReference('tryton', 'company-filter', companyName),
    ),
  missingJournal: (companyName: string, journal: string) =>
    needsIntegrator(
      'JOURNAL_MISSING',
      `Tryton has no journal for the spend platform's postings in ${companyName}`,
      `${journal} is missing; create it in Tryton or set TRYTON_JOURNAL_CODE (see docs/tryton.md)`,
      integratorReference('tryton', 'journal', companyName, journal),
    ),
} satisfies Record<string, (...args: never[]) => ErpErrorInfo>;
