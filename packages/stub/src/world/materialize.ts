import type { ObjectKind } from '../core/ids.ts';
import { generateBill } from './generate-bill.ts';
import type { GenContext } from './generate-common.ts';
import { generateCashback, generateReimbursement, generateTransfer } from './generate-others.ts';
import { generateTransaction } from './generate-transaction.ts';

/** The full object of a kind at an index, as the ready-object reads return it (src/stub/schemas). */
export type AnyObject = { id: string } & Record<string, unknown>;

const GENERATORS: Record<ObjectKind, (ctx: GenContext, index: number) => unknown> = {
  transaction: generateTransaction,
  reimbursement: generateReimbursement,
  transfer: generateTransfer,
  cashback: generateCashback,
  bill: generateBill,
};

export function materialize(ctx: GenContext, kind: ObjectKind, index: number): AnyObject {
  return GENERATORS[kind](ctx, index) as AnyObject;
}
