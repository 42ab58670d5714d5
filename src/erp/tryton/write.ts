import type { Logger } from '../../log.ts';
import type { Outcome } from '../core/outcome.ts';
import type { ErpErrorInfo } from '../errors.ts';
import type { BillPaymentInput, ErpWrite, ObjectKind, VendorInput, WriteResult } from '../types.ts';
import type { TrytonContext } from './context.ts';
import { failureOf } from './faults.ts';
import { type RecordKey, recordKey } from './keys.ts';
import { type Existing, type RecordRef, referenceOf } from './lookup.ts';
import type { TrytonModels } from './models.ts';
import { planMove } from './plan.ts';
import { planBill } from './plan-bill.ts';
import { linkPayment, settleInvoice } from './settle.ts';

/**
 * One object into Tryton: replay what its reference already names, finish a record an earlier
 * attempt left in draft, or check, create and post it. A record whose posting Tryton refuses is
 * deleted again (a refusal leaves nothing behind), and the refusal is mapped by faults.ts.
 */

export interface WriteDeps {
  m: TrytonModels;
  /** Runs fn alone among this adapter's calls holding the same key. */
  exclusive: <T>(key: string, fn: () => Promise<T>) => Promise<T>;
  log: Logger;
  deepLink: (kind: ObjectKind, record: RecordRef) => string | undefined;
}

export type Model = 'account.move' | 'account.invoice';

export function success(
  deps: WriteDeps,
  input: ErpWrite,
  existing: RecordRef,
  replayed: boolean,
): WriteResult {
  const link = deps.deepLink(input.kind, existing);
  return {
    ok: true,
    kind: input.kind,
    objectId: input.objectId,
    referenceId: referenceOf(existing),
    ...(link ? { deepLinkUrl: link } : {}),
    replayed,
  };
}

export function failure(deps: WriteDeps, input: ErpWrite, error: ErpErrorInfo, cause?: unknown): WriteResult {
  if (error.category === 'needs_integrator') {
    deps.log.error(
      { err: cause, referenceId: error.referenceId, kind: input.kind, objectId: input.objectId },
      'tryton write failed',
    );
  }
  return { ok: false, kind: input.kind, objectId: input.objectId, error };
}

/**
 * Posts drafts in one call (one transaction: all or none). Invoices post under one lock: their
 * strict number sequence is locked without waiting by each posting.
 */
export function postDrafts(deps: WriteDeps, model: Model, ids: number[]): Promise<unknown> {
  const post = () => deps.m.button(model, 'post', ids);
  return model === 'account.invoice' ? deps.exclusive('tryton:post-invoice', post) : post();
}

/**
 * Posts a draft; on refusal deletes it so nothing stays behind, and rethrows.
 */
async function postOrDiscard(deps: WriteDeps, model: Model, id: number): Promise<void> {
  try {
    await postDrafts(deps, model, [id]);
  } catch (error) {
    await deps.m.delete(model, [id]).catch(() => undefined);
    throw error;
  }
}

async function createAndPost(
  deps: WriteDeps,
  input: ErpWrite,
  model: Model,
  plan: Outcome<Record<string, unknown>>,
  afterCreate?: (id: number) => Promise<void>,
  afterPost?: () => Promise<void>,
): Promise<WriteResult> {
  if (!plan.ok) return failure(deps, input, plan.error);
  const [id] = await deps.m.create(model, [plan.value]);
  if (afterCreate) {
    try {
      await afterCreate(id!);
    } catch (error) {
      await deps.m.delete(model, [id!]).catch(() => undefined);
      throw error;
    }
  }
  await postOrDiscard(deps, model, id!);
  await afterPost?.();
  return success(deps, input, { model, id: id! }, false);
}

async function writeVendor(deps: WriteDeps, input: VendorInput, key: RecordKey): Promise<WriteResult> {
  const [id] = await deps.m.create('party.party', [
    {
      name: input.name,
      // A supplier invoice needs an address; the bookkeeper completes it later.
      addresses: [['create', [{}]]],
      identifiers: [['create', [{ code: key.text }]]],
    },
  ]);
  return success(deps, input, { model: 'party.party', id: id! }, false);
}

async function writePayment(deps: WriteDeps, input: BillPaymentInput, key: RecordKey, ctx: TrytonContext) {
  const plan = planMove(input, key, ctx);
  if (!plan.ok) return failure(deps, input, plan.error);
  // Planned, so the core found the invoice posted, in the payment's currency and open enough.
  const invoice = ctx.bills.get(input.billObjectId)!;
  return createAndPost(
    deps,
    input,
    'account.move',
    plan,
    (id) => linkPayment(deps.m, id, invoice.id),
    () => settle(deps, input, invoice.id),
  );
}

/** Reconciling is Tryton's bookkeeping of a recorded payment: its failure fails nothing. */
async function settle(deps: WriteDeps, input: ErpWrite, invoiceId: number): Promise<void> {
  try {
    await settleInvoice(deps.m, invoiceId);
  } catch (error) {
    deps.log.warn({ err: error, objectId: input.objectId }, 'tryton: could not reconcile a paid invoice');
  }
}

/** Finishes what an interrupted attempt left: a draft is posted (and a payment linked first). */
async function resume(
  deps: WriteDeps,
  input: ErpWrite,
  existing: Existing,
  ctx: TrytonContext,
): Promise<WriteResult> {
  if (existing.model === 'party.party') return success(deps, input, existing, true);
  const invoice = input.kind === 'bill_payment' ? ctx.bills.get(input.billObjectId) : undefined;
  if (invoice && existing.model === 'account.move') await linkPayment(deps.m, existing.id, invoice.id);
  const replayed = existing.complete;
  if (!replayed) await postOrDiscard(deps, existing.model, existing.id);
  if (invoice) await settle(deps, input, invoice.id);
  return success(deps, input, existing, replayed);
}

export async function writeOne(
  deps: WriteDeps,
  input: ErpWrite,
  existing: Existing | undefined,
  ctx: TrytonContext,
): Promise<WriteResult> {
  const key = recordKey(input.kind, input.objectId);
  try {
    if (existing) return await resume(deps, input, existing, ctx);
    switch (input.kind) {
      case 'vendor':
        return await writeVendor(deps, input, key);
      case 'card_transaction':
      case 'reimbursement':
      case 'transfer':
      case 'cashback':
        return await createAndPost(deps, input, 'account.move', planMove(input, key, ctx));
      case 'bill':
        return await createAndPost(deps, input, 'account.invoice', planBill(input, key, ctx));
      case 'bill_payment':
        return await writePayment(deps, input, key, ctx);
    }
  } catch (error) {
    return failure(deps, input, failureOf(error, input), error);
  }
}
