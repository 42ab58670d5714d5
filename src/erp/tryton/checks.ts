import type { ErpErrorInfo } from '../errors.ts';
import type { DefaultRole } from '../ledger/model.ts';
import type { Coding, PostingInput } from '../types.ts';
import { isActive } from './active-window.ts';
import { leafRates } from './chart-read.ts';
import type { TrytonContext } from './context.ts';
import { refuse } from './refusals.ts';
import type { AccountRow, PartyRow, PeriodRow, TaxRow } from './rows.ts';

/**
 * The adapter's refusals as pure checks over a loaded TrytonContext, made before anything is
 * written so a refused object leaves nothing in Tryton. Each returns the first problem, in the
 * order a bookkeeper reads the object, or what it resolved.
 */

export type Outcome<T> = { ok: true; value: T } | { ok: false; error: ErpErrorInfo };

const ok = <T>(value: T): Outcome<T> => ({ ok: true, value });
const fail = (error: ErpErrorInfo): Outcome<never> => ({ ok: false, error });

/**
 * Entity, book currency and period of the object's date. (With TRYTON_COMPANY_BY_ENTITY the
 * entity chose the company before: companies.ts.)
 */
export function checkHeader(input: PostingInput, ctx: TrytonContext): Outcome<PeriodRow> {
  const { company } = ctx;
  if (input.entityId !== null && ctx.entityIds !== null && !ctx.entityIds.has(input.entityId)) {
    return fail(refuse.unknownEntity(input.entityId, company.name));
  }
  if (input.currency.code !== company.currencyCode) {
    return fail(refuse.currencyMismatch(input.kind, input.currency, company.name, company.currencyCode));
  }
  if (input.currency.exponent !== company.digits) {
    return fail(refuse.exponentMismatch(input.kind, input.objectId, input.currency, company.digits));
  }
  const period = ctx.periods.find((p) => p.start_date <= input.date && input.date <= p.end_date);
  if (!period) return fail(refuse.missingPeriod(input.kind, input.date));
  if (period.state !== 'open') return fail(refuse.closedPeriod(input.kind, input.date, period.name));
  return ok(period);
}

export function checkAccount(accountId: string, where: string, ctx: TrytonContext): Outcome<AccountRow> {
  const account = ctx.accounts.get(accountId);
  if (!account) return fail(refuse.unknownAccount(accountId, where, ctx.companyLabel));
  if (account.closed || !isActive(account, ctx.activeWindow))
    return fail(refuse.inactiveAccount(account, where));
  if (account.type === null) return fail(refuse.viewAccount(account, where));
  return ok(account);
}

/** The account an object names for a role, else the posting default. */
export function resolveRole(role: DefaultRole, override: string | undefined, ctx: TrytonContext) {
  const found = ctx.roles.get(role);
  const accountId = override ?? (found && 'id' in found ? found.id : undefined);
  if (!accountId)
    return fail(
      refuse.missingDefault(role, found && 'missing' in found ? found.missing : undefined, ctx.companyLabel),
    );
  return checkAccount(accountId, `the ${role.replace('_', ' ')} account`, ctx);
}

export function checkVendor(vendorId: string, where: string, ctx: TrytonContext): Outcome<PartyRow> {
  const party = ctx.parties.get(vendorId);
  if (!party) return fail(refuse.unknownVendor(vendorId, where));
  if (!party.active) return fail(refuse.inactiveVendor(party.name ?? vendorId, where));
  return ok(party);
}

function checkTax(taxId: string, where: string, ctx: TrytonContext): Outcome<TaxRow[]> {
  const tax = /^\d+$/.test(taxId) ? ctx.taxes.get(Number(taxId)) : undefined;
  if (!tax) return fail(refuse.unknownTaxCode(taxId, where, ctx.companyLabel));
  if (!tax.active) return fail(refuse.inactiveTaxCode(tax.name, where));
  const rates = leafRates(tax, ctx.taxes);
  if (rates.length === 0) return fail(refuse.invalidTaxCode(tax.name));
  for (const rate of rates) {
    const account = checkAccount(String(rate.invoice_account), `tax ${rate.name} of ${where}`, ctx);
    if (!account.ok) return account;
  }
  return ok(rates);
}

/** Tryton expects every open analytic axis on lines of income-statement accounts. */
function checkDimensions(
  coding: Coding,
  account: AccountRow,
  where: string,
  kind: PostingInput['kind'],
  ctx: TrytonContext,
) {
  for (const [fieldId, optionId] of Object.entries(coding.dimensions)) {
    const root = ctx.analytic.get(fieldId);
    if (root?.type !== 'root') return refuse.unknownField(fieldId, where, ctx.companyLabel);
    if (!root.active || root.state !== 'opened') return refuse.inactiveField(root.name, where);
    const option = ctx.analytic.get(optionId);
    if (!option || option.root !== root.id || option.type !== 'normal') {
      return refuse.unknownOption(root.name, optionId, where);
    }
    if (!option.active || option.state !== 'opened')
      return refuse.inactiveOption(root.name, option.name, where);
  }
  const statement = account.type === null ? null : ctx.types.get(account.type)?.statement;
  if (statement !== 'income') return null;
  for (const root of ctx.analytic.values()) {
    const open = root.type === 'root' && root.active && root.state === 'opened';
    if (open && !(String(root.id) in coding.dimensions))
      return refuse.missingDimension(root.name, kind, where);
  }
  return null;
}

export interface CheckedLine {
  account: AccountRow;
  rates: TaxRow[];
}

/** Account, vendor, analytic axes and tax of one coded line. */
export function checkCoding(
  coding: Coding,
  where: string,
  kind: PostingInput['kind'],
  ctx: TrytonContext,
): Outcome<CheckedLine> {
  const account = checkAccount(coding.glAccountId, where, ctx);
  if (!account.ok) return account;
  if (coding.vendorId) {
    const vendor = checkVendor(coding.vendorId, where, ctx);
    if (!vendor.ok) return vendor;
  }
  const dimensionProblem = checkDimensions(coding, account.value, where, kind, ctx);
  if (dimensionProblem) return fail(dimensionProblem);
  if (!coding.taxCodeId) return ok({ account: account.value, rates: [] });
  const rates = checkTax(coding.taxCodeId, where, ctx);
  return rates.ok ? ok({ account: account.value, rates: rates.value }) : rates;
}
