import type { Sql } from 'postgres';
import type { ErpAdapter } from '../../erp/adapter.ts';
import type { ErpWrite, WriteResult } from '../../erp/types.ts';
import { claimRows } from '../outbox/claim-rows.ts';
import { type Outcome, recordOutcomes } from '../outbox/record-outcomes.ts';
import type { PlannedItem } from './plan-page.ts';

export interface ApplyContext {
  sql: Sql;
  erp: ErpAdapter;
  connectionId: string;
  syncRequestId?: string | undefined;
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

/** docs/platform.md G23: a bill payment follows its bill; when the bill step fails, its payment waits. */
const DEPENDS_ON: Record<string, string> = { BILL_PAYMENT_SYNC: 'BILL_SYNC' };

/**
 * Claims the page's rows, writes the due ones to the ERP, and records every outcome before
 * anything is reported. Sync types run as ordered phases (bills, then bill payments), so a
 * payment is attempted only when its bill is in the ERP; a payment whose bill failed in this
 * page is left unclaimed for a later run instead of being reported (the platform would reject it).
 */
export async function applyPage(context: ApplyContext, items: readonly PlannedItem[]): Promise<ApplyCounts> {
  const counts: ApplyCounts = { claimed: 0, posted: 0, failed: 0, skipped: 0 };
  const phases = new Map<string, PlannedItem[]>();
  for (const item of items) phases.set(item.syncType, [...(phases.get(item.syncType) ?? []), item]);
  const failedBySyncType = new Map<string, Set<string>>();
  for (const [syncType, phase] of phases) {
    const prerequisite = DEPENDS_ON[syncType];
    const blocked = prerequisite ? failedBySyncType.get(prerequisite) : undefined;
    const runnable = blocked ? phase.filter((i) => !blocked.has(i.objectId)) : phase;
    const outcomes = await applyPhase(context, syncType, runnable, counts);
    failedBySyncType.set(syncType, new Set(outcomes.filter((o) => !o.ok).map((o) => o.objectId)));
  }
  return counts;
}

async function applyPhase(
  context: ApplyContext,
  syncType: string,
  items: readonly PlannedItem[],
  counts: ApplyCounts,
): Promise<Outcome[]> {
  const ids = [...new Set(items.map((i) => i.objectId))];
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
