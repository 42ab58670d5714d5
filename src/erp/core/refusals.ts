import { type ErpErrorInfo, integratorReference, needsIntegrator, userActionable } from '../errors.ts';
import { KIND_LABEL } from '../labels.ts';
import { formatMinor } from '../money.ts';
import type { Currency, ObjectKind } from '../types.ts';
import type { Books, OpenBill } from './chart-view.ts';
import type { DefaultRole } from './roles.ts';
import { capitalized, type ErpTerms, withArticle } from './terms.ts';

/**
 * The refusals every ERP makes, each written for the bookkeeper: what is wrong, named the way
 * the ERP names it (its words come from `t`, terms.ts), and what to change there before syncing
 * again. Codes and categories are the same whatever the ERP; tests assert codes and words.
 */

type Named = { code: string | null; name: string };

function accountLabel(account: Named): string {
  return account.code ? `${account.code} ${account.name}` : account.name;
}

export const refuse = {
  unknownEntity: (t: ErpTerms, entityId: string) =>
    userActionable('ENTITY_UNKNOWN', `Entity ${entityId} has no books in ${t.erp}`, t.addBooks(entityId)),
  currencyMismatch: (kind: ObjectKind, currency: Currency, books: Books) =>
    userActionable(
      'CURRENCY_MISMATCH',
      `This ${KIND_LABEL[kind]} is in ${currency.code} but the books of ${books.label} are kept in ${books.currency.code}`,
      `record it in ${books.currency.code} or move it to an entity whose books are kept in ${currency.code}`,
    ),
  exponentMismatch: (t: ErpTerms, kind: ObjectKind, objectId: string, currency: Currency, kept: number) =>
    needsIntegrator(
      'CURRENCY_EXPONENT_MISMATCH',
      `The amounts of this ${currency.code} object were sent with the wrong number of decimals`,
      `sent exponent ${currency.exponent}, ${t.erp} keeps ${kept}`,
      integratorReference(kind, objectId, 'exponent'),
    ),
  closedPeriod: (t: ErpTerms, kind: ObjectKind, date: string, period: string) =>
    userActionable(
      'PERIOD_CLOSED',
      `The ${KIND_LABEL[kind]} is dated ${date}, in the closed period ${period}`,
      `reopen ${t.periodNoun}${period} in ${t.erp}, or change the accounting date to an open period`,
    ),
  missingPeriod: (t: ErpTerms, kind: ObjectKind, date: string) =>
    userActionable(
      'PERIOD_MISSING',
      `The ${KIND_LABEL[kind]} is dated ${date}, and ${t.erp} has no open fiscal year period for that date`,
      `create the fiscal year and its periods for ${date.slice(0, 4)} in ${t.erp}, or change the accounting date`,
    ),
  unknownAccount: (t: ErpTerms, accountId: string, where: string) =>
    userActionable(
      'ACCOUNT_UNKNOWN',
      `The GL account with id ${accountId} on ${where} is not ${t.scope ? `an account${t.scope}` : `in ${t.erp}`}`,
      `refresh the chart of accounts and code the line to an account${t.scope} that exists in ${t.erp}`,
    ),
  inactiveAccount: (t: ErpTerms, account: Named, where: string) =>
    userActionable(
      'ACCOUNT_INACTIVE',
      `GL account ${accountLabel(account)} on ${where} is ${t.inactiveAccount} in ${t.erp}`,
      `reactivate account ${account.code || account.name} in ${t.erp}${t.reactivateAccountHint}, or pick another active account`,
    ),
  unpostableAccount: (t: ErpTerms, account: Named, where: string) =>
    userActionable(
      'ACCOUNT_NOT_POSTABLE',
      `GL account ${accountLabel(account)} on ${where} has no type in ${t.erp}, so nothing can be posted to it`,
      `set a type on account ${account.code || account.name} in ${t.erp}, or pick another account`,
    ),
  missingDefault: (t: ErpTerms, role: DefaultRole, code: string | undefined) => {
    const { title, fix } = t.noDefault(role, code);
    return userActionable('DEFAULT_ACCOUNT_MISSING', title, fix);
  },
  unknownVendor: (t: ErpTerms, vendorId: string, where: string) =>
    userActionable(
      'VENDOR_UNKNOWN',
      `The vendor with id ${vendorId} on ${where} is not ${withArticle(t.vendor)} in ${t.erp}`,
      `create the ${t.vendor} in ${t.erp} (or let the sync create it), or pick a vendor that exists`,
    ),
  inactiveVendor: (t: ErpTerms, name: string, where: string) =>
    userActionable(
      'VENDOR_INACTIVE',
      `Vendor ${name} on ${where} is inactive in ${t.erp}`,
      `reactivate ${t.vendor} ${name} in ${t.erp}, or pick another vendor`,
    ),
  vendorWithoutAddress: (t: ErpTerms, name: string) =>
    userActionable(
      'VENDOR_ADDRESS_MISSING',
      `Vendor ${name} has no address in ${t.erp}, and a supplier invoice needs one`,
      `add an address to ${t.vendor} ${name} in ${t.erp}`,
    ),
  unknownTaxCode: (t: ErpTerms, taxCodeId: string, where: string) =>
    userActionable(
      'TAX_CODE_UNKNOWN',
      `The tax code with id ${taxCodeId} on ${where} is not ${withArticle(t.taxCode)}${t.scope} in ${t.erp}`,
      `refresh the tax codes and pick one${t.scope} that exists in ${t.erp}`,
    ),
  inactiveTaxCode: (t: ErpTerms, name: string, where: string) =>
    userActionable(
      'TAX_CODE_INACTIVE',
      `${capitalized(t.taxCode)} ${name} on ${where} is inactive in ${t.erp}`,
      `reactivate ${t.taxCode} ${name} in ${t.erp}, or pick another tax code`,
    ),
  invalidTaxCode: (t: ErpTerms, name: string) =>
    userActionable(
      'TAX_CODE_INVALID',
      `The rates of ${t.taxCode} ${name} add up to -100% or less${t.unusableTaxCode}`,
      `correct the rates of ${t.taxCode} ${name} in ${t.erp}`,
    ),
  unknownField: (t: ErpTerms, fieldId: string, where: string) =>
    userActionable(
      'FIELD_UNKNOWN',
      `The custom field with id ${fieldId} on ${where} is not ${withArticle(t.field)}${t.scope} in ${t.erp}`,
      'refresh the chart of accounts and recode the line',
    ),
  inactiveField: (t: ErpTerms, name: string, where: string) =>
    userActionable(
      'FIELD_INACTIVE',
      `${capitalized(t.field)} ${name} on ${where} is ${t.closedDimension} in ${t.erp}`,
      `${t.reopenDimension} ${t.field} ${name} in ${t.erp}, or remove it from the line`,
    ),
  unknownOption: (t: ErpTerms, field: string, optionId: string, where: string) =>
    userActionable(
      'FIELD_OPTION_UNKNOWN',
      `The ${field} option with id ${optionId} on ${where} is not ${withArticle(t.option)} of ${field} in ${t.erp}`,
      `pick a ${field} that exists in ${t.erp}`,
    ),
  inactiveOption: (t: ErpTerms, field: string, option: string, where: string) =>
    userActionable(
      'FIELD_OPTION_INACTIVE',
      `${field} ${option} on ${where} is ${t.closedDimension} in ${t.erp}`,
      `${t.reopenDimension} ${t.option} ${option} in ${t.erp}, or pick another ${field}`,
    ),
  /** `scope` says which lines need the field: "" (all of the kind) or " coded to …". */
  missingDimension: (field: string, kind: ObjectKind, where: string, scope: string) =>
    userActionable(
      'DIMENSION_REQUIRED',
      `${field} is required on every ${KIND_LABEL[kind]} line${scope}, and ${where} has none`,
      `choose a ${field} on ${where}`,
    ),
  unknownBill: (t: ErpTerms, billObjectId: string) =>
    userActionable(
      'BILL_UNKNOWN',
      `The bill ${billObjectId} that this payment pays is not in ${t.erp}`,
      'sync the bill first (fix its own error if it has one), then sync the payment again',
    ),
  billCurrencyMismatch: (bill: OpenBill, currency: Currency) =>
    userActionable(
      'CURRENCY_MISMATCH',
      `The payment is in ${currency.code} but ${bill.label} is in ${bill.currency}`,
      `record the payment in ${bill.currency}`,
    ),
  overpayment: (t: ErpTerms, bill: OpenBill, amount: number, currency: Currency) =>
    userActionable(
      'BILL_OVERPAID',
      `The payment of ${formatMinor(amount, currency)} is more than the ${formatMinor(bill.open, currency)} still open on ${bill.label}`,
      `check the payment amount, or record the extra amount as ${t.vendorCredit}`,
    ),
  overpaidConcurrently: (t: ErpTerms, billObjectId: string) =>
    userActionable(
      'BILL_OVERPAID',
      `The payment is more than what is still open on bill ${billObjectId}: another payment of it was recorded first`,
      `check the payment against the payments already recorded on the bill, or record the extra amount as ${t.vendorCredit}`,
    ),
} satisfies Record<string, (...args: never[]) => ErpErrorInfo>;
