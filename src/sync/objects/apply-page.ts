import { setTimeout as sleep } from 'node:timers/promises';
import type { Sql } from 'postgres';
import type { ErpAdapter, ErpWrite, WriteResult } from '../../erp/index.ts';
import type { Logger } from '../../log.ts';
import { claimRows, inDoubtForMs, type Outcome, recordOutcomes } from '../sync-ledger/index.ts';
import type { PlannedItem } from './plan-page.ts';

export interface ApplyContext {
  sql: Sql;
  erp: ErpAdapter;
  connectionId: string;
  syncRequestId?: string | undefined;
  log: Logger;
}

export interface ApplyCounts {
  claimed: number;
  posted: number;
  failed: number;
  /** Already known from an earlier run and waiting in the outbox. */
  skipped: number;
}

function outcomeOf(result: WriteResult): Outcome {
  if (result.ok)
    return {
      objectId: result.objectId,
      ok: true,
      referenceId: result.referenceId,
      deepLinkUrl: result.deepLinkUrl,
    };
  return {
    objectId: result.objectId,
    ok: false,
    category: result.error.category,
    message: result.error.message,
  };
}

/** docs/platform.md G23: a bill payment follows its bill. */
const DEPENDS_ON: Readonly<Record<string, string>> = { BILL_PAYMENT_SYNC: 'BILL_SYNC' };

/** How many prerequisites stand before a sync type: phases run in this order. */
function depth(syncType: string): number {
  const prerequisite = DEPENDS_ON[syncType];
  return prerequisite ? depth(prerequisite) + 1 : 0;
}

/**
 * Claims the page's rows, writes the due ones to the ERP, and records every outcome before
 * anything is reported. Sync types run as ordered phases (bills, then bill payments) whatever
 * order the page lists them in, so a payment is attempted only when its bill is in the ERP.
 *
 * A payment whose bill has a step in this page (the platform shows the bill NOT_SYNCED) runs only
 * when that step succeeded here. Otherwise (the bill failed, its row was not due because its
 * outcome still waits in the outbox, or the page is stale) the payment is left unclaimed: the
 * platform takes BILL_PAYMENT_SYNC only for a bill already BILL_SYNCED and would refuse it. It
 * becomes due on a later run, once the platform lists the bill as BILL_SYNCED and PAID.
 */
export async function applyPage(context: ApplyContext, items: readonly PlannedItem[]): Promise<ApplyCounts> {
  const counts: ApplyCounts = { claimed: 0, posted: 0, failed: 0, skipped: 0 };
  await inPhases(items, (syncType, runnable) => applyPhase(context, syncType, runnable, counts));
  return counts;
}

/**
 * The order and the holding back of applyPage, shared with the dry run (dry-run.ts) so both make
 * the same decisions: `run` gets each sync type's runnable items in phase order and answers their
 * outcomes (none for an item it did not take).
 */
export async function inPhases(
  items: readonly PlannedItem[],
  run: (syncType: string, runnable: PlannedItem[]) => Promise<readonly { objectId: string; ok: boolean }[]>,
): Promise<void> {
  const phases = new Map<string, PlannedItem[]>();
  for (const item of items) phases.set(item.syncType, [...(phases.get(item.syncType) ?? []), item]);
  const ordered = [...phases].sort(([a], [b]) => depth(a) - depth(b));
  const inPage = new Map<string, Set<string>>();
  const succeeded = new Map<string, Set<string>>();
  for (const [syncType, phase] of ordered) {
    const prerequisite = DEPENDS_ON[syncType];
    const runnable = prerequisite
      ? phase.filter(
          (i) => !inPage.get(prerequisite)?.has(i.objectId) || succeeded.get(prerequisite)?.has(i.objectId),
        )
      : phase;
    const outcomes = await run(syncType, runnable);
    inPage.set(syncType, new Set(phase.map((i) => i.objectId)));
    succeeded.set(syncType, new Set(outcomes.filter((o) => o.ok).map((o) => o.objectId)));
  }
}

async function applyPhase(
  context: ApplyContext,
  syncType: string,
  items: readonly PlannedItem[],
  counts: ApplyCounts,
): Promise<Outcome[]> {
  const ids = [...new Set(items.map((i) => i.objectId))];
  await settleInterruptedWrites(context, syncType, ids);
  const claimed = new Set(
    await claimRows(context.sql, {
      connectionId: context.connectionId,
      syncType,
      objectIds: ids,
      syncRequestId: context.syncRequestId,
    }),
  );
  counts.claimed += claimed.size;
  counts.skipped += ids.length - claimed.size;
  const due = items.filter((i) => claimed.has(i.objectId));
  const writes = due.filter((i): i is Extract<PlannedItem, { write: ErpWrite }> => 'write' in i);
  const results = writes.length > 0 ? await context.erp.postMany(writes.map((w) => w.write)) : [];
  if (results.length !== writes.length)
    throw new Error(`The ERP returned ${results.length} results for ${writes.length} writes`);
  const outcomes: Outcome[] = [
    ...results.map(outcomeOf),
    ...due.flatMap((i) => ('failure' in i ? [i.failure] : [])),
  ];
  await recordOutcomes(context.sql, context.connectionId, syncType, outcomes);
  for (const o of outcomes) {
    if (o.ok) counts.posted++;
    else counts.failed++;
  }
  return outcomes;
}

/**
 * Waits, before claiming, until a write an interrupted run may have left in the ERP's hands has
 * had its time to land (sync-ledger/in-doubt.ts): claiming first would date the claim before the
 * wait, and a crash of this run during its own write would then be waited for too briefly.
 */
async function settleInterruptedWrites(context: ApplyContext, syncType: string, ids: string[]) {
  const settleMs = context.erp.writeSettleMs ?? 0;
  const waitMs = await inDoubtForMs(
    context.sql,
    { connectionId: context.connectionId, syncType, objectIds: ids },
    settleMs,
  );
  if (waitMs <= 0) return;
  context.log.warn(
    { syncType, waitMs, erp: context.erp.name },
    `waiting ${Math.ceil(waitMs / 1000)} s before writing objects an interrupted run was writing, so the ERP's look-up sees what that run's last call did`,
  );
  await sleep(waitMs);
}
