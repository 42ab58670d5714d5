import type { ErpErrorInfo } from '../errors.ts';
import type { Coding, PostingInput } from '../types.ts';
import type { Books, ChartAccount, ChartTaxCode, ChartVendor, PostingChart } from './chart-view.ts';
import { fail, type Outcome, ok } from './outcome.ts';
import { refuse } from './refusals.ts';
import { type DefaultRole, roleLabel } from './roles.ts';

/**
 * The coding checks over the neutral view of an ERP's books (chart-view.ts), made before
 * anything is written so a refused object leaves nothing behind. Each returns the first problem
 * found (a bookkeeper fixes one thing at a time, in the order a line is read), or what it
 * resolved.
 */

/** Entity, book currency and period: everything about the header. */
export function checkHeader(input: PostingInput, chart: PostingChart): Outcome<Books> {
  const t = chart.terms;
  const books = chart.books(input.entityId);
  if (!books) return fail(refuse.unknownEntity(t, input.entityId ?? '(default)'));
  if (books.currency.code !== input.currency.code) {
    return fail(refuse.currencyMismatch(input.kind, input.currency, books));
  }
  if (books.currency.exponent !== input.currency.exponent) {
    return fail(
      refuse.exponentMismatch(t, input.kind, input.objectId, input.currency, books.currency.exponent),
    );
  }
  const period = chart.period(books, input.date);
  if (!period) return fail(refuse.missingPeriod(t, input.kind, input.date));
  if (!period.open) return fail(refuse.closedPeriod(t, input.kind, input.date, period.name));
  return ok(books);
}

function checkAccount(accountId: string, where: string, chart: PostingChart): Outcome<ChartAccount> {
  const t = chart.terms;
  const account = chart.account(accountId);
  if (!account) return fail(refuse.unknownAccount(t, accountId, where));
  if (!account.active) return fail(refuse.inactiveAccount(t, account, where));
  if (!account.postable) return fail(refuse.unpostableAccount(t, account, where));
  return ok(account);
}

/** The account an object names for a role, else the ERP's default for it. */
export function resolveRole(
  role: DefaultRole,
  override: string | undefined,
  chart: PostingChart,
): Outcome<ChartAccount> {
  const found = chart.roleDefault(role);
  const accountId = override ?? ('accountId' in found ? found.accountId : undefined);
  if (!accountId) {
    const lookedFor = 'lookedFor' in found ? found.lookedFor : undefined;
    return fail(refuse.missingDefault(chart.terms, role, lookedFor));
  }
  return checkAccount(accountId, `the ${roleLabel(role)} account`, chart);
}

export function checkVendor(vendorId: string, where: string, chart: PostingChart): Outcome<ChartVendor> {
  const vendor = chart.vendor(vendorId);
  if (!vendor) return fail(refuse.unknownVendor(chart.terms, vendorId, where));
  if (!vendor.active) return fail(refuse.inactiveVendor(chart.terms, vendor.name ?? vendorId, where));
  return ok(vendor);
}

function checkTaxCode(taxCodeId: string, where: string, chart: PostingChart): Outcome<ChartTaxCode> {
  const t = chart.terms;
  const code = chart.taxCode(taxCodeId);
  if (!code) return fail(refuse.unknownTaxCode(t, taxCodeId, where));
  if (!code.active) return fail(refuse.inactiveTaxCode(t, code.name, where));
  if (!code.usable) return fail(refuse.invalidTaxCode(t, code.name));
  for (const rate of code.rates) {
    const account = checkAccount(rate.accountId, `${t.taxRate} ${rate.name} of ${where}`, chart);
    if (!account.ok) return account;
  }
  return ok(code);
}

const INCOME_STATEMENT_LINES = ' coded to an income or expense account';

/** Each dimension names a usable field and option; every field the line needs is there. */
function checkDimensions(
  coding: Coding,
  account: ChartAccount,
  where: string,
  kind: PostingInput['kind'],
  chart: PostingChart,
): ErpErrorInfo | null {
  const t = chart.terms;
  for (const [fieldId, optionId] of Object.entries(coding.dimensions)) {
    const field = chart.field(fieldId);
    if (!field) return refuse.unknownField(t, fieldId, where);
    if (!field.active) return refuse.inactiveField(t, field.name, where);
    if (!field.hasOptions) continue; // free text, dates and booleans are values
    const option = chart.option(fieldId, optionId);
    if (!option) return refuse.unknownOption(t, field.name, optionId, where);
    if (!option.active) return refuse.inactiveOption(t, field.name, option.name, where);
  }
  for (const field of chart.fields()) {
    const required = field.required;
    if (!field.active || !required || field.id in coding.dimensions) continue;
    if (required.kinds !== null && !required.kinds.includes(kind)) continue;
    if (required.incomeStatementOnly && !account.incomeStatement) continue;
    return refuse.missingDimension(
      field.name,
      kind,
      where,
      required.incomeStatementOnly ? INCOME_STATEMENT_LINES : '',
    );
  }
  return null;
}

export interface CheckedCoding {
  account: ChartAccount;
  taxCode: ChartTaxCode | null;
}

/** Account, vendor, dimensions and tax code of one coded line. */
export function checkCoding(
  coding: Coding,
  where: string,
  kind: PostingInput['kind'],
  chart: PostingChart,
): Outcome<CheckedCoding> {
  const account = checkAccount(coding.glAccountId, where, chart);
  if (!account.ok) return account;
  if (coding.vendorId) {
    const vendor = checkVendor(coding.vendorId, where, chart);
    if (!vendor.ok) return vendor;
  }
  const dimensionProblem = checkDimensions(coding, account.value, where, kind, chart);
  if (dimensionProblem) return fail(dimensionProblem);
  if (!coding.taxCodeId) return ok({ account: account.value, taxCode: null });
  const taxCode = checkTaxCode(coding.taxCodeId, where, chart);
  return taxCode.ok ? ok({ account: account.value, taxCode: taxCode.value }) : taxCode;
}
