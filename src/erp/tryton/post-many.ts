import type { z } from 'zod';
import type { Logger } from '../../log.ts';
import { integratorReference, needsIntegrator } from '../errors.ts';
import { KIND_LABEL } from '../labels.ts';
import type { DefaultRole } from '../ledger/model.ts';
import { ErpWrite, ObjectKind, type WriteResult } from '../types.ts';
import { loadContext } from './context.ts';
import { failureOf } from './faults.ts';
import type { KeyLocks } from './key-locks.ts';
import { recordKey } from './keys.ts';
import { findExisting } from './lookup.ts';
import type { TrytonModels } from './models.ts';
import { type WriteDeps, writeOne } from './write.ts';

/**
 * The path behind every Tryton write: validate each item, collapse repeated ids (a repeat is a
 * replay of its first), then in two phases — everything but payments of bills in the same call,
 * then those payments, so they find their invoice posted — lock the phase's keys, look up in one
 * search what Tryton already holds, load the context once, and write the items a few at a time.
 * Each item succeeds or fails on its own.
 */

export interface PostManyDeps extends WriteDeps {
  locks: KeyLocks;
  journalCode: string;
  defaults: Partial<Record<DefaultRole, string>>;
  concurrency: number;
  log: Logger;
  m: TrytonModels;
}

function invalidInput(raw: unknown, error: z.ZodError): WriteResult {
  const item = (raw ?? {}) as { kind?: unknown; objectId?: unknown };
  const kind = ObjectKind.safeParse(item.kind);
  if (!kind.success)
    throw new TypeError(`postMany: item kind ${String(item.kind)} is not an ERP object kind`);
  const objectId = typeof item.objectId === 'string' ? item.objectId : '';
  const detail = error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join('.') || 'input'}: ${issue.message}`)
    .join('; ');
  const info = needsIntegrator(
    'INVALID_INPUT',
    `The integration sent a ${KIND_LABEL[kind.data]} the ERP cannot read`,
    detail,
    integratorReference(kind.data, objectId, detail),
  );
  return { ok: false, kind: kind.data, objectId, error: info };
}

async function eachLimited<T>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

interface Indexed {
  index: number;
  input: ErpWrite;
}

async function writePhase(deps: PostManyDeps, phase: Indexed[], out: WriteResult[]): Promise<void> {
  const keys = phase.map((i) => recordKey(i.input.kind, i.input.objectId));
  await deps.locks.withKeys(
    keys.map((k) => k.text),
    async () => {
      try {
        const options = { journalCode: deps.journalCode, defaults: deps.defaults };
        const inputs = phase.map((i) => i.input);
        const [existing, ctx] = await Promise.all([
          findExisting(deps.m, keys),
          loadContext(deps.m, inputs, options),
        ]);
        await eachLimited(phase, deps.concurrency, async ({ index, input }) => {
          out[index] = await writeOne(
            deps,
            input,
            existing.get(recordKey(input.kind, input.objectId).text),
            ctx,
          );
        });
      } catch (error) {
        // Tryton could not even be read: every item of the phase fails alike.
        for (const { index, input } of phase) {
          if (out[index]) continue;
          const info = failureOf(error, input);
          if (info.category === 'needs_integrator')
            deps.log.error({ err: error, referenceId: info.referenceId }, 'tryton batch failed');
          out[index] = { ok: false, kind: input.kind, objectId: input.objectId, error: info };
        }
      }
    },
  );
}

export async function postMany(deps: PostManyDeps, raw: readonly unknown[]): Promise<WriteResult[]> {
  const out: WriteResult[] = new Array(raw.length);
  const firstIndexOf = new Map<string, number>();
  const duplicates: { index: number; of: number }[] = [];
  const unique: Indexed[] = [];
  raw.forEach((candidate, index) => {
    const parsed = ErpWrite.safeParse(candidate);
    if (!parsed.success) {
      out[index] = invalidInput(candidate, parsed.error);
      return;
    }
    const key = recordKey(parsed.data.kind, parsed.data.objectId).text;
    const first = firstIndexOf.get(key);
    if (first === undefined) {
      firstIndexOf.set(key, index);
      unique.push({ index, input: parsed.data });
    } else duplicates.push({ index, of: first });
  });
  const billsHere = new Set(unique.flatMap((i) => (i.input.kind === 'bill' ? [i.input.objectId] : [])));
  const waits = (i: Indexed) => i.input.kind === 'bill_payment' && billsHere.has(i.input.billObjectId);
  for (const phase of [unique.filter((i) => !waits(i)), unique.filter(waits)]) {
    if (phase.length > 0) await writePhase(deps, phase, out);
  }
  for (const { index, of } of duplicates) {
    const first = out[of]!;
    out[index] = first.ok ? { ...first, replayed: true } : first;
  }
  return out;
}
