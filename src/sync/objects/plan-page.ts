import type { ErpWrite } from '../../erp/index.ts';
import { integratorReference, needsIntegrator, parseErpWrite } from '../../erp/index.ts';
import type { SyncType } from '../../platform/index.ts';
import { issuesText } from '../../zod-issues.ts';
import { freeText, MappingProblem } from '../map/index.ts';
import type { Outcome } from '../sync-ledger/index.ts';
import type { KindSpec, PlatformObject } from './kinds.ts';
import type { ReadItem } from './platform-port.ts';

/** A write for one (object, sync type), or the reason there is none. */
export type PlannedItem =
  | { objectId: string; syncType: SyncType; write: ErpWrite }
  | { objectId: string; syncType: SyncType; failure: Extract<Outcome, { ok: false }> };

export interface PagePlan {
  items: PlannedItem[];
  /** Items the platform sent without a readable id: logged, never reportable. */
  unreadable: string[];
  /** Objects read that call for no write now (a bill the decision table leaves alone, G23). */
  nothingToSync: number;
}

function unreadableObject(noun: string, id: string, error: string): Extract<Outcome, { ok: false }> {
  const info = needsIntegrator(
    'UNREADABLE_OBJECT',
    `The ${noun} could not be read`,
    `The platform sent it in a form ledgersync does not accept (${freeText(error)})`,
    integratorReference('unreadable', id),
  );
  return { objectId: id, ok: false, category: info.category, message: info.message };
}

function failureOf(objectId: string, error: unknown, noun: string): Extract<Outcome, { ok: false }> {
  if (error instanceof MappingProblem) {
    const info = error.toErrorInfo();
    return { objectId, ok: false, category: info.category, message: info.message };
  }
  const info = needsIntegrator(
    'MAPPING_FAILED',
    `The ${noun} could not be prepared for the ERP`,
    // The detail may quote platform text; the sync ledger cannot store NUL.
    freeText(error instanceof Error ? error.message : String(error)),
    integratorReference('mapping', objectId),
  );
  return { objectId, ok: false, category: info.category, message: info.message };
}

/** The objects of a page that could be read, as the kind's list parsed them. */
export function readObjects(items: readonly ReadItem[]): PlatformObject[] {
  return items.flatMap((i) => (i.ok ? [i.value as PlatformObject] : []));
}

/**
 * Turns a page into ERP writes, one per (object, sync type). A poisoned object (unparseable,
 * uncoded, or a write that fails the ERP input schema) becomes a planned failure on its own;
 * it never stops the rest of the page. An object the kind's preparation failed (`prepared`) is
 * not planned: its failure is reported under the kind's first sync type.
 */
export function planPage(
  spec: KindSpec<PlatformObject>,
  items: readonly ReadItem[],
  prepared: readonly Extract<Outcome, { ok: false }>[] = [],
): PagePlan {
  const plan: PagePlan = { items: [], unreadable: [], nothingToSync: 0 };
  const failedIds = new Set(prepared.map((f) => f.objectId));
  for (const item of items) {
    if (item.ok && failedIds.has((item.value as PlatformObject).id)) continue;
    if (!item.ok) {
      if (item.id) {
        for (const syncType of spec.syncTypes.slice(0, 1)) {
          plan.items.push({
            objectId: item.id,
            syncType,
            failure: unreadableObject(spec.noun, item.id, item.error),
          });
        }
      } else plan.unreadable.push(item.error);
      continue;
    }
    const object = item.value as PlatformObject;
    const steps = spec.steps(object);
    if (steps.length === 0) plan.nothingToSync++;
    for (const step of steps) {
      try {
        const checked = parseErpWrite(step.build());
        if (!checked.success) throw new Error(issuesText(checked.error));
        // The parsed write goes on: the adapter's own read of it (core/batch.ts) then trusts it.
        plan.items.push({ objectId: object.id, syncType: step.syncType, write: checked.data });
      } catch (error) {
        plan.items.push({
          objectId: object.id,
          syncType: step.syncType,
          failure: failureOf(object.id, error, spec.noun),
        });
      }
    }
  }
  for (const failure of prepared)
    plan.items.push({ objectId: failure.objectId, syncType: spec.syncTypes[0]!, failure });
  return plan;
}
