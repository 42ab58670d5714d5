import { type ErpErrorInfo, userActionable } from '../errors.ts';
import { KIND_LABEL } from '../labels.ts';
import { formatMinor } from '../money.ts';
import type { Currency, ObjectKind } from '../types.ts';
import type { AccountRow, BillRow, DefaultRole, EntityRow, FieldRow, OptionRow, VendorRow } from './model.ts';

/**
 * The ledger's expected refusals, each written for the bookkeeper: what is wrong, named the way
 * the ledger names it (account code and name, vendor name, field and option), and what to change
 * before syncing again. Codes are stable; tests assert both the code and the words.
 */

const ROLE_LABEL: Record<DefaultRole, string> = {
  card_liability: 'card liability',
  employee_payable: 'employee payable',
  accounts_payable: 'accounts payable',
  bank: 'bank',
  cashback_income: 'cashback income',
};

export function accountLabel(account: AccountRow): string {
  return account.code ? `${account.code} ${account.name}` : account.name;
}

export function roleLabel(role: DefaultRole): string {
  return ROLE_LABEL[role];
}

function monthName(isoDate: string): string {
  const [year, month] = isoDate.split('-');
  const name = new Date(Date.UTC(Number(year), Number(month) - 1, 1)).toLocaleString('en-US', {
    month: 'long',
    timeZone: 'UTC',
  });
  return `${name} ${year}`;
}

export const refuse = {
  unknownEntity: (entityId: string) =>
    userActionable(
      'ENTITY_UNKNOWN',
      `Entity ${entityId} has no books in the ledger`,
      'add the entity to the ledger with its book currency, or move the object to an entity the ledger keeps',
    ),
  currencyMismatch: (kind: ObjectKind, currency: Currency, entity: EntityRow) =>
    userActionable(
      'CURRENCY_MISMATCH',
      `This ${KIND_LABEL[kind]} is in ${currency.code} but the books of ${entity.name} are kept in ${entity.currency.code}`,
      `record it in ${entity.currency.code} or move it to an entity whose books are kept in ${currency.code}`,
    ),
  closedPeriod: (kind: ObjectKind, date: string) =>
    userActionable(
      'PERIOD_CLOSED',
      `The ${KIND_LABEL[kind]} is dated ${date}, in the closed period ${monthName(date)}`,
      `reopen ${monthName(date)} in the ledger, or change the accounting date to an open period`,
    ),
  unknownAccount: (accountId: string, where: string) =>
    userActionable(
      'ACCOUNT_UNKNOWN',
      `The GL account with id ${accountId} on ${where} is not in the ledger`,
      'refresh the chart of accounts and code the line to an account that exists in the ledger',
    ),
  inactiveAccount: (account: AccountRow, where: string) =>
    userActionable(
      'ACCOUNT_INACTIVE',
      `GL account ${accountLabel(account)} on ${where} is inactive in the ledger`,
      `reactivate account ${account.code || account.name} in the ledger, or pick another active account`,
    ),
  missingDefault: (role: DefaultRole) =>
    userActionable(
      'DEFAULT_ACCOUNT_MISSING',
      `The ledger has no ${roleLabel(role)} account set`,
      `set the ${roleLabel(role)} account in the ledger's posting defaults`,
    ),
  unknownVendor: (vendorId: string, where: string) =>
    userActionable(
      'VENDOR_UNKNOWN',
      `The vendor with id ${vendorId} on ${where} is not in the ledger`,
      'create the vendor in the ledger (or let the sync create it), or pick a vendor that exists',
    ),
  inactiveVendor: (vendor: VendorRow, where: string) =>
    userActionable(
      'VENDOR_INACTIVE',
      `Vendor ${vendor.name} on ${where} is inactive in the ledger`,
      `reactivate vendor ${vendor.name} in the ledger, or pick another vendor`,
    ),
  unknownTaxCode: (taxCodeId: string, where: string) =>
    userActionable(
      'TAX_CODE_UNKNOWN',
      `The tax code with id ${taxCodeId} on ${where} is not in the ledger`,
      'refresh the tax codes and pick one that exists in the ledger',
    ),
  inactiveTaxCode: (name: string, where: string) =>
    userActionable(
      'TAX_CODE_INACTIVE',
      `Tax code ${name} on ${where} is inactive in the ledger`,
      `reactivate tax code ${name} in the ledger, or pick another tax code`,
    ),
  invalidTaxCode: (name: string) =>
    userActionable(
      'TAX_CODE_INVALID',
      `The rates of tax code ${name} add up to -100% or less`,
      `correct the rates of tax code ${name} in the ledger`,
    ),
  unknownField: (fieldId: string, where: string) =>
    userActionable(
      'FIELD_UNKNOWN',
      `The custom field with id ${fieldId} on ${where} is not in the ledger`,
      'refresh the chart of accounts and recode the line',
    ),
  inactiveField: (field: FieldRow, where: string) =>
    userActionable(
      'FIELD_INACTIVE',
      `Custom field ${field.name} on ${where} is inactive in the ledger`,
      `reactivate ${field.name} in the ledger, or remove it from the line`,
    ),
  unknownOption: (field: FieldRow, optionId: string, where: string) =>
    userActionable(
      'FIELD_OPTION_UNKNOWN',
      `The ${field.name} option with id ${optionId} on ${where} is not in the ledger`,
      `pick a ${field.name} that exists in the ledger`,
    ),
  inactiveOption: (field: FieldRow, option: OptionRow, where: string) =>
    userActionable(
      'FIELD_OPTION_INACTIVE',
      `${field.name} ${option.value} on ${where} is inactive in the ledger`,
      `reactivate ${field.name} ${option.value} in the ledger, or pick another ${field.name}`,
    ),
  missingDimension: (field: FieldRow, kind: ObjectKind, where: string) =>
    userActionable(
      'DIMENSION_REQUIRED',
      `${field.name} is required on every ${KIND_LABEL[kind]} line, and ${where} has none`,
      `choose a ${field.name} on ${where}`,
    ),
  unknownBill: (billObjectId: string) =>
    userActionable(
      'BILL_UNKNOWN',
      `The bill ${billObjectId} that this payment pays is not in the ledger`,
      'sync the bill first (fix its own error if it has one), then sync the payment again',
    ),
  billCurrencyMismatch: (bill: BillRow, currency: Currency) =>
    userActionable(
      'CURRENCY_MISMATCH',
      `The payment is in ${currency.code} but bill ${bill.referenceId} is in ${bill.currency}`,
      `record the payment in ${bill.currency}`,
    ),
  overpayment: (bill: BillRow, amount: number, currency: Currency) =>
    userActionable(
      'BILL_OVERPAID',
      `The payment of ${formatMinor(amount, currency)} is more than the ${formatMinor(bill.total - bill.paid, currency)} still open on bill ${bill.referenceId}`,
      'check the payment amount, or record the extra amount as a vendor credit in the ledger',
    ),
  overpaidConcurrently: (billObjectId: string) =>
    userActionable(
      'BILL_OVERPAID',
      `The payment is more than what is still open on bill ${billObjectId}: another payment of it was recorded first`,
      'check the payment against the payments already recorded on the bill, or record the extra amount as a vendor credit in the ledger',
    ),
} satisfies Record<string, (...args: never[]) => ErpErrorInfo>;
