import type { z } from 'zod';
import { issuesText } from '../../zod-issues.ts';
import { integratorReference, needsIntegrator } from '../errors.ts';
import { KIND_LABEL } from '../labels.ts';
import { parseErpWrite } from '../parsed-write.ts';
import { type ErpWrite, ObjectKind, type WriteResult } from '../types.ts';

/**
 * What every adapter's postMany does around its own writes: read each item (a bad one becomes
 * its own failure), collapse repeated (kind, object id) keys — a repeat is a replay of its first
 * occurrence — and order the work so payments of bills in the same call come after those bills.
 * Which objects are already posted stays the adapter's to know: it holds them.
 */

export interface Indexed<T = ErpWrite> {
  index: number;
  input: T;
}

function invalidInput(raw: unknown, error: z.ZodError): WriteResult {
  const item = (raw ?? {}) as { kind?: unknown; objectId?: unknown };
  const kind = ObjectKind.safeParse(item.kind);
  if (!kind.success)
    throw new TypeError(`postMany: item kind ${String(item.kind)} is not an ERP object kind`);
  const objectId = typeof item.objectId === 'string' ? item.objectId : '';
  const detail = issuesText(error, { root: 'input' });
  const info = needsIntegrator(
    'INVALID_INPUT',
    `The integration sent a ${KIND_LABEL[kind.data]} the ERP cannot read`,
    detail,
    integratorReference(kind.data, objectId, detail),
  );
  return { ok: false, kind: kind.data, objectId, error: info };
}

/** The key an object is idempotent by. */
export function postingKey(item: { kind: ObjectKind; objectId: string }): string {
  return `${item.kind}\u0000${item.objectId}`;
}

export interface ReadBatch {
  /** Results so far: the failures of unreadable items. */
  out: WriteResult[];
  /** The first occurrence of each key, to write. */
  unique: Indexed[];
  /** Items repeating an earlier key (its index). */
  repeats: { index: number; of: number }[];
}

export function readBatch(raw: readonly unknown[]): ReadBatch {
  const out: WriteResult[] = new Array(raw.length);
  const firstIndexOf = new Map<string, number>();
  const repeats: ReadBatch['repeats'] = [];
  const unique: Indexed[] = [];
  raw.forEach((candidate, index) => {
    const parsed = parseErpWrite(candidate);
    if (!parsed.success) {
      out[index] = invalidInput(candidate, parsed.error);
      return;
    }
    const key = postingKey(parsed.data);
    const first = firstIndexOf.get(key);
    if (first === undefined) {
      firstIndexOf.set(key, index);
      unique.push({ index, input: parsed.data });
    } else repeats.push({ index, of: first });
  });
  return { out, unique, repeats };
}

/**
 * Payments of bills that travel in the same call go last, so they find their bill posted; every
 * other item (payments of bills posted earlier included) goes in the first phase.
 */
export function phases(items: Indexed[]): Indexed[][] {
  const billsHere = new Set(items.flatMap((i) => (i.input.kind === 'bill' ? [i.input.objectId] : [])));
  const waits = (i: Indexed) => i.input.kind === 'bill_payment' && billsHere.has(i.input.billObjectId);
  return [items.filter((i) => !waits(i)), items.filter(waits)];
}

/** A repeated key in one call answers as its first occurrence did, replayed. */
export function replayRepeats(batch: ReadBatch): WriteResult[] {
  for (const { index, of } of batch.repeats) {
    const first = batch.out[of]!;
    batch.out[index] = first.ok ? { ...first, replayed: true } : first;
  }
  return batch.out;
}
