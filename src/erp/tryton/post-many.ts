import type { Logger } from '../../log.ts';
import { type Indexed, phases, readBatch, replayRepeats } from '../core/batch.ts';
import type { KeyLocks } from '../core/key-locks.ts';
import type { DefaultRole } from '../core/roles.ts';
import type { ErpErrorInfo } from '../errors.ts';
import type { ErpWrite, WriteResult } from '../types.ts';
import { type Companies, type CompanyScope, companyScopes, type Route } from './companies.ts';
import { loadContext, type TrytonContext } from './context.ts';
import { failureOf } from './faults.ts';
import { recordKey } from './keys.ts';
import { type Existing, findExisting } from './lookup.ts';
import type { TrytonModels } from './models.ts';
import { type Model, type WriteDeps, writeOne } from './write.ts';
import { batchModel, type Planned, planBatchable, writeBatch } from './write-batch.ts';

/**
 * The path behind every Tryton write: validate each item, collapse repeated ids (a repeat is a
 * replay of its first), then in two phases — everything but payments of bills in the same call,
 * then those payments, so they find their invoice posted — lock the phase's keys, read the
 * companies, look up in one search per company what Tryton already holds, send each item to its
 * company (where its record already is, else where its entity maps: companies.ts), load each
 * company's context once, and write new moves and invoices in batches (write-batch.ts), the rest
 * one by one, a few tasks at a time. Each item succeeds or fails on its own.
 */

export interface PostManyDeps extends WriteDeps {
  locks: KeyLocks;
  journalCode: string;
  defaults: Partial<Record<DefaultRole, string>>;
  /** The companies (cached: companies.ts). */
  companies: () => Promise<Companies>;
  /** Batches written at once, and items alone (TRYTON_CONCURRENCY). */
  concurrency: number;
  /** New moves or invoices per create call (write-batch.ts). */
  batchSize: number;
  log: Logger;
  m: TrytonModels;
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

/** Items that cannot go to any company: one log line per distinct cause, then their failures. */
function refuseUnrouted(
  deps: PostManyDeps,
  refused: { item: Indexed; error: ErpErrorInfo }[],
  out: WriteResult[],
) {
  const logged = new Set<string>();
  for (const { item, error } of refused) {
    const reference = error.referenceId ?? error.code;
    if (!logged.has(reference)) {
      logged.add(reference);
      deps.log.error({ referenceId: error.referenceId, code: error.code }, `tryton: ${error.title}`);
    }
    out[item.index] = { ok: false, kind: item.input.kind, objectId: item.input.objectId, error };
  }
}

interface Group {
  scope: CompanyScope;
  items: Indexed[];
}

/** Items by the company each goes to (where `companyOf` says), and those that go nowhere. */
function groupByCompany(
  phase: Indexed[],
  scopes: CompanyScope[],
  companyOf: (item: Indexed) => Route,
): { groups: Map<number, Group>; refused: { item: Indexed; error: ErpErrorInfo }[] } {
  const groups = new Map<number, Group>();
  const refused: { item: Indexed; error: ErpErrorInfo }[] = [];
  for (const item of phase) {
    const route = companyOf(item);
    if (!route.ok) {
      refused.push({ item, error: route.error });
      continue;
    }
    const scope = scopes.find((s) => s.company.id === route.company.id)!;
    const group = groups.get(scope.company.id) ?? { scope, items: [] };
    group.items.push(item);
    groups.set(scope.company.id, group);
  }
  return { groups, refused };
}

const keyOf = (input: ErpWrite) => recordKey(input.kind, input.objectId).text;

async function writePhase(deps: PostManyDeps, phase: Indexed[], out: WriteResult[]): Promise<void> {
  const keys = phase.map((i) => recordKey(i.input.kind, i.input.objectId));
  await deps.locks.withKeys(
    keys.map((k) => k.text),
    async () => {
      try {
        const companies = await deps.companies();
        const scopes = companyScopes(deps.m, companies);
        const options = {
          journalCode: deps.journalCode,
          defaults: deps.defaults,
          severalCompanies: companies.all.length > 1,
          entitiesListed: !companies.mapped,
        };
        const contextOf = (g: Group) =>
          loadContext(
            g.scope.m,
            g.scope.company,
            g.items.map((i) => i.input),
            options,
          );
        // The look-up and each routed company's context in parallel; an object whose record is
        // already in another company (its entity's mapping changed) goes there instead.
        const routed = groupByCompany(phase, scopes, (item) => companies.route(item.input));
        const [existing, routedContexts] = await Promise.all([
          findExisting(
            deps.m,
            companies.all.map((c) => c.id),
            keys,
          ),
          Promise.all([...routed.groups.entries()].map(async ([id, g]) => [id, await contextOf(g)] as const)),
        ]);
        const final = groupByCompany(phase, scopes, (item) => {
          const found = existing.get(keyOf(item.input));
          if (found?.companyId == null) return companies.route(item.input);
          return { ok: true, company: companies.all.find((c) => c.id === found.companyId)! };
        });
        refuseUnrouted(deps, final.refused, out);
        const contexts = new Map<number, TrytonContext>(routedContexts);
        await Promise.all(
          [...final.groups.entries()].map(async ([id, g]) => {
            const routedHere = routed.groups.get(id)?.items ?? [];
            if (!contexts.has(id) || g.items.some((i) => !routedHere.includes(i))) {
              contexts.set(id, await contextOf(g));
            }
          }),
        );
        const companyIds = companies.all.map((c) => c.id);
        const tasks = [...final.groups.entries()].flatMap(([id, g]) =>
          writeTasks({ ...deps, m: g.scope.m }, g.items, contexts.get(id)!, existing, companyIds, out),
        );
        await eachLimited(tasks, deps.concurrency, (task) => task());
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

type Task = () => Promise<void>;

/**
 * One company's items as tasks: new moves and new invoices a batch per task (write-batch.ts),
 * the rest (vendors, payments, records an earlier attempt left) one per task.
 */
function writeTasks(
  deps: PostManyDeps,
  items: Indexed[],
  ctx: TrytonContext,
  existing: Map<string, Existing>,
  companyIds: readonly number[],
  out: WriteResult[],
): Task[] {
  const tasks: Task[] = [];
  const batchable = new Map<Model, Planned[]>();
  for (const item of items) {
    const found = existing.get(keyOf(item.input));
    const model = batchModel(item.input);
    if (found || model === null) {
      tasks.push(async () => {
        out[item.index] = await writeOne(deps, item.input, found, ctx);
      });
      continue;
    }
    const plan = planBatchable(deps, item.input, ctx);
    if (!plan.ok) out[item.index] = plan.result;
    else batchable.set(model, [...(batchable.get(model) ?? []), { item, values: plan.values }]);
  }
  for (const [model, planned] of batchable) {
    for (let start = 0; start < planned.length; start += deps.batchSize) {
      const batch = planned.slice(start, start + deps.batchSize);
      tasks.push(async () => {
        const results = await writeBatch(deps, model, batch, ctx, companyIds);
        for (const [i, p] of batch.entries()) out[p.item.index] = results[i]!;
      });
    }
  }
  return tasks;
}

export async function postMany(deps: PostManyDeps, raw: readonly unknown[]): Promise<WriteResult[]> {
  const batch = readBatch(raw);
  for (const phase of phases(batch.unique)) {
    if (phase.length > 0) await writePhase(deps, phase, batch.out);
  }
  return replayRepeats(batch);
}
