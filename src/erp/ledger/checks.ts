import type { ErpErrorInfo } from '../errors.ts';
import { integratorReference, needsIntegrator } from '../errors.ts';
import type { Coding, PostingInput } from '../types.ts';
import {
  type DefaultRole,
  type EntityRow,
  optionKey,
  type PostingContext,
  type TaxCodeRow,
} from './model.ts';
import { refuse, roleLabel } from './refusals.ts';

/**
 * The ledger's refusals as pure checks over a loaded PostingContext. Each returns the first
 * problem found (a bookkeeper fixes one thing at a time, in the order a line is read), or the
 * resolved row when all is well.
 */

export type Outcome<T> = { ok: true; value: T } | { ok: false; error: ErpErrorInfo };

const ok = <T>(value: T): Outcome<T> => ({ ok: true, value });
const fail = (error: ErpErrorInfo): Outcome<never> => ({ ok: false, error });

function entityFor(input: PostingInput, ctx: PostingContext): EntityRow | undefined {
  if (input.entityId !== null) return ctx.entities.get(input.entityId);
  for (const entity of ctx.entities.values()) if (entity.isDefault) return entity;
  return undefined;
}

/** Entity, book currency and period: everything about the header. */
export function checkHeader(input: PostingInput, ctx: PostingContext): Outcome<EntityRow> {
  const entity = entityFor(input, ctx);
  if (!entity) return fail(refuse.unknownEntity(input.entityId ?? '(default)'));
  if (entity.currency.code !== input.currency.code) {
    return fail(refuse.currencyMismatch(input.kind, input.currency, entity));
  }
  if (entity.currency.exponent !== input.currency.exponent) {
    return fail(
      needsIntegrator(
        'CURRENCY_EXPONENT_MISMATCH',
        `The amounts of this ${input.currency.code} object were sent with the wrong number of decimals`,
        `sent exponent ${input.currency.exponent}, the ledger keeps ${entity.currency.exponent}`,
        integratorReference(input.kind, input.objectId, 'exponent'),
      ),
    );
  }
  const closed = ctx.closedPeriods.find((p) => input.date >= p.start && input.date <= p.end);
  if (closed) return fail(refuse.closedPeriod(input.kind, input.date));
  return ok(entity);
}

export function checkAccount(accountId: string, where: string, ctx: PostingContext): ErpErrorInfo | null {
  const account = ctx.accounts.get(accountId);
  if (!account) return refuse.unknownAccount(accountId, where);
  if (!account.active) return refuse.inactiveAccount(account, where);
  return null;
}

/** The account an object names for a role, else the ledger's default for it. */
export function resolveRole(
  role: DefaultRole,
  override: string | undefined,
  ctx: PostingContext,
): Outcome<string> {
  const accountId = override ?? ctx.defaults[role];
  if (!accountId) return fail(refuse.missingDefault(role));
  const problem = checkAccount(accountId, `the ${roleLabel(role)} account`, ctx);
  return problem ? fail(problem) : ok(accountId);
}

export function checkVendor(vendorId: string, where: string, ctx: PostingContext): ErpErrorInfo | null {
  const vendor = ctx.vendors.get(vendorId);
  if (!vendor) return refuse.unknownVendor(vendorId, where);
  if (!vendor.active) return refuse.inactiveVendor(vendor, where);
  return null;
}

function checkTaxCode(taxCodeId: string, where: string, ctx: PostingContext): Outcome<TaxCodeRow> {
  const code = ctx.taxCodes.get(taxCodeId);
  if (!code) return fail(refuse.unknownTaxCode(taxCodeId, where));
  if (!code.active) return fail(refuse.inactiveTaxCode(code.name, where));
  for (const rate of code.rates) {
    const problem = checkAccount(rate.accountId, `tax rate ${rate.name} of ${where}`, ctx);
    if (problem) return fail(problem);
  }
  return ok(code);
}

function checkDimensions(coding: Coding, where: string, kind: PostingInput['kind'], ctx: PostingContext) {
  for (const [fieldId, optionId] of Object.entries(coding.dimensions)) {
    const field = ctx.fields.get(fieldId);
    if (!field) return refuse.unknownField(fieldId, where);
    if (!field.active) return refuse.inactiveField(field, where);
    if (field.inputType !== 'SINGLE_CHOICE') continue; // free text, dates and booleans are values
    const option = ctx.options.get(optionKey(fieldId, optionId));
    if (!option) return refuse.unknownOption(field, optionId, where);
    if (!option.active) return refuse.inactiveOption(field, option, where);
  }
  for (const field of ctx.fields.values()) {
    if (field.active && field.requiredFor.includes(kind) && !(field.id in coding.dimensions)) {
      return refuse.missingDimension(field, kind, where);
    }
  }
  return null;
}

/** Account, vendor, tax code and dimensions of one coded line; returns its tax code if any. */
export function checkCoding(
  coding: Coding,
  where: string,
  kind: PostingInput['kind'],
  ctx: PostingContext,
): Outcome<TaxCodeRow | null> {
  const accountProblem = checkAccount(coding.glAccountId, where, ctx);
  if (accountProblem) return fail(accountProblem);
  if (coding.vendorId) {
    const vendorProblem = checkVendor(coding.vendorId, where, ctx);
    if (vendorProblem) return fail(vendorProblem);
  }
  const dimensionProblem = checkDimensions(coding, where, kind, ctx);
  if (dimensionProblem) return fail(dimensionProblem);
  if (!coding.taxCodeId) return ok(null);
  return checkTaxCode(coding.taxCodeId, where, ctx);
}
