import { type ErpErrorInfo, integratorReference, needsIntegrator, userActionable } from '../errors.ts';
import { KIND_LABEL } from '../labels.ts';
import type { DefaultRole } from '../ledger/model.ts';
import { formatMinor } from '../money.ts';
import type { Currency, ObjectKind } from '../types.ts';
import { ROLE_SETTING } from './options.ts';

/**
 * The refusals of the Tryton adapter, each written for the bookkeeper in Tryton's words (account
 * code and name, party name, analytic account, period): what is wrong and what to change in
 * Tryton before syncing again. Codes are the same as the built-in ledger's.
 */

const ROLE_LABEL: Record<DefaultRole, string> = {
  card_liability: 'card liability',
  employee_payable: 'employee payable',
  accounts_payable: 'accounts payable',
  bank: 'bank',
  cashback_income: 'cashback income',
};

export function accountLabel(account: { code: string | null; name: string }): string {
  return account.code ? `${account.code} ${account.name}` : account.name;
}

/** " of company X" when several companies keep books, so the message says whose chart it means. */
const ofCompany = (company: string | null) => (company ? ` of company ${company}` : '');

export const refuse = {
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
  unknownEntity: (entityId: string, companyName: string) =>
    userActionable(
      'ENTITY_UNKNOWN',
      `Entity ${entityId} has no books in Tryton`,
      `add ${entityId} as an identifier of the party of company ${companyName} in Tryton, or move the object to an entity whose books Tryton keeps`,
    ),
  currencyMismatch: (kind: ObjectKind, currency: Currency, companyName: string, bookCurrency: string) =>
    userActionable(
      'CURRENCY_MISMATCH',
      `This ${KIND_LABEL[kind]} is in ${currency.code} but the books of ${companyName} in Tryton are kept in ${bookCurrency}`,
      `record it in ${bookCurrency} or move it to an entity whose books are kept in ${currency.code}`,
    ),
  exponentMismatch: (kind: ObjectKind, objectId: string, currency: Currency, digits: number) =>
    needsIntegrator(
      'CURRENCY_EXPONENT_MISMATCH',
      `The amounts of this ${currency.code} object were sent with the wrong number of decimals`,
      `sent exponent ${currency.exponent}, Tryton keeps ${digits}`,
      integratorReference(kind, objectId, 'exponent'),
    ),
  closedPeriod: (kind: ObjectKind, date: string, period: string) =>
    userActionable(
      'PERIOD_CLOSED',
      `The ${KIND_LABEL[kind]} is dated ${date}, in the closed period ${period}`,
      `reopen period ${period} in Tryton, or change the accounting date to an open period`,
    ),
  missingPeriod: (kind: ObjectKind, date: string) =>
    userActionable(
      'PERIOD_MISSING',
      `The ${KIND_LABEL[kind]} is dated ${date}, and Tryton has no open fiscal year period for that date`,
      `create the fiscal year and its periods for ${date.slice(0, 4)} in Tryton, or change the accounting date`,
    ),
  unknownAccount: (accountId: string, where: string, company: string | null = null) =>
    userActionable(
      'ACCOUNT_UNKNOWN',
      `The GL account with id ${accountId} on ${where} is not ${company ? `an account of company ${company}` : 'in Tryton'}`,
      `refresh the chart of accounts and code the line to an account${ofCompany(company)} that exists in Tryton`,
    ),
  inactiveAccount: (account: { code: string | null; name: string }, where: string) =>
    userActionable(
      'ACCOUNT_INACTIVE',
      `GL account ${accountLabel(account)} on ${where} is closed or inactive in Tryton`,
      `reactivate account ${account.code || account.name} in Tryton (untick Closed), or pick another active account`,
    ),
  viewAccount: (account: { code: string | null; name: string }, where: string) =>
    userActionable(
      'ACCOUNT_NOT_POSTABLE',
      `GL account ${accountLabel(account)} on ${where} has no type in Tryton, so nothing can be posted to it`,
      `set a type on account ${account.code || account.name} in Tryton, or pick another account`,
    ),
  missingDefault: (role: DefaultRole, code: string | undefined, company: string | null = null) =>
    userActionable(
      'DEFAULT_ACCOUNT_MISSING',
      code
        ? `Tryton has no ${ROLE_LABEL[role]} account with code ${code}${ofCompany(company)}`
        : `Tryton has no default ${ROLE_LABEL[role]} account set${company ? ` for company ${company}` : ''}`,
      code
        ? `create the ${ROLE_LABEL[role]} account with code ${code}${ofCompany(company)} in Tryton, or have your integrator set ${ROLE_SETTING[role]} to the code of another account`
        : `set the default ${ROLE_LABEL[role]} account in Tryton's account configuration, or have your integrator set ${ROLE_SETTING[role]}`,
    ),
  unknownVendor: (vendorId: string, where: string) =>
    userActionable(
      'VENDOR_UNKNOWN',
      `The vendor with id ${vendorId} on ${where} is not a party in Tryton`,
      'create the party in Tryton (or let the sync create it), or pick a vendor that exists',
    ),
  inactiveVendor: (name: string, where: string) =>
    userActionable(
      'VENDOR_INACTIVE',
      `Vendor ${name} on ${where} is inactive in Tryton`,
      `reactivate party ${name} in Tryton, or pick another vendor`,
    ),
  vendorWithoutAddress: (name: string) =>
    userActionable(
      'VENDOR_ADDRESS_MISSING',
      `Vendor ${name} has no address in Tryton, and a supplier invoice needs one`,
      `add an address to party ${name} in Tryton`,
    ),
  unknownTaxCode: (taxCodeId: string, where: string, company: string | null = null) =>
    userActionable(
      'TAX_CODE_UNKNOWN',
      `The tax code with id ${taxCodeId} on ${where} is not a tax${ofCompany(company)} in Tryton`,
      `refresh the tax codes and pick one${ofCompany(company)} that exists in Tryton`,
    ),
  inactiveTaxCode: (name: string, where: string) =>
    userActionable(
      'TAX_CODE_INACTIVE',
      `Tax ${name} on ${where} is inactive in Tryton`,
      `reactivate tax ${name} in Tryton, or pick another tax code`,
    ),
  invalidTaxCode: (name: string) =>
    userActionable(
      'TAX_CODE_INVALID',
      `The rates of tax ${name} add up to -100% or less, or it has no percentage rate with an account`,
      `correct tax ${name} in Tryton`,
    ),
  unknownField: (fieldId: string, where: string, company: string | null = null) =>
    userActionable(
      'FIELD_UNKNOWN',
      `The custom field with id ${fieldId} on ${where} is not an analytic axis${ofCompany(company)} in Tryton`,
      'refresh the chart of accounts and recode the line',
    ),
  inactiveField: (name: string, where: string) =>
    userActionable(
      'FIELD_INACTIVE',
      `Analytic axis ${name} on ${where} is not open in Tryton`,
      `open analytic axis ${name} in Tryton, or remove it from the line`,
    ),
  unknownOption: (field: string, optionId: string, where: string) =>
    userActionable(
      'FIELD_OPTION_UNKNOWN',
      `The ${field} option with id ${optionId} on ${where} is not an analytic account of ${field} in Tryton`,
      `pick a ${field} that exists in Tryton`,
    ),
  inactiveOption: (field: string, option: string, where: string) =>
    userActionable(
      'FIELD_OPTION_INACTIVE',
      `${field} ${option} on ${where} is not open in Tryton`,
      `open analytic account ${option} in Tryton, or pick another ${field}`,
    ),
  missingDimension: (field: string, kind: ObjectKind, where: string) =>
    userActionable(
      'DIMENSION_REQUIRED',
      `${field} is required on every ${KIND_LABEL[kind]} line coded to an income or expense account, and ${where} has none`,
      `choose a ${field} on ${where}`,
    ),
  unknownBill: (billObjectId: string) =>
    userActionable(
      'BILL_UNKNOWN',
      `The bill ${billObjectId} that this payment pays is not in Tryton`,
      'sync the bill first (fix its own error if it has one), then sync the payment again',
    ),
  billCurrencyMismatch: (billNumber: string, billCurrency: string, currency: Currency) =>
    userActionable(
      'CURRENCY_MISMATCH',
      `The payment is in ${currency.code} but invoice ${billNumber} in Tryton is in ${billCurrency}`,
      `record the payment in ${billCurrency}`,
    ),
  overpayment: (billNumber: string, amount: number, open: number, currency: Currency) =>
    userActionable(
      'BILL_OVERPAID',
      `The payment of ${formatMinor(amount, currency)} is more than the ${formatMinor(open, currency)} still open on invoice ${billNumber} in Tryton`,
      'check the payment amount, or record the extra amount as a supplier credit note in Tryton',
    ),
  missingJournal: (companyName: string, journal: string) =>
    needsIntegrator(
      'JOURNAL_MISSING',
      `Tryton has no journal for the spend platform's postings in ${companyName}`,
      `${journal} is missing; create it in Tryton or set TRYTON_JOURNAL_CODE (see docs/tryton.md)`,
      integratorReference('tryton', 'journal', companyName, journal),
    ),
} satisfies Record<string, (...args: never[]) => ErpErrorInfo>;
