import type { Sql } from 'postgres';
import { ErrorCategory } from '../erp/index.ts';
import { kindOfSyncType, OBJECT_KINDS, type ObjectKindName } from '../sync/objects/index.ts';
import { frozenCountsBySyncType } from '../sync/reporting/index.ts';
import { requestLatencyBuckets } from '../sync/sync-button/index.ts';
import { reportedTotalsBySyncType, unbatchedBySyncType } from '../sync/sync-ledger/index.ts';

/** The failure categories (src/erp/errors.ts), in the order reports list them. */
export const FAILURE_CATEGORIES = ErrorCategory.options;
type FailureCategory = ErrorCategory;

/** What the outbox holds per kind: results not yet in a batch, and frozen batches not yet acked. */
export interface OutboxDepth {
  kind: ObjectKindName;
  unbatched: number;
  frozenBatches: number;
  frozenItems: number;
}

/** Reported outcomes per kind, as the sync ledger holds them now. */
export interface LedgerTotals {
  kind: ObjectKindName;
  synced: number;
  rejected: number;
  failed: Record<FailureCategory, number>;
}

/** Answered sync-button requests: latency bucket counts (cumulative, per upper bound in seconds). */
export interface ButtonLatency {
  buckets: { le: number; count: number }[];
  count: number;
  sumSeconds: number;
  states: Record<'OPEN' | 'ANSWERED' | 'EXPIRED', number>;
}

/** Cheap: both reads use partial indexes (sync_ledger_unbatched, result_batches_frozen). */
export async function readOutbox(sql: Sql, connectionId: string): Promise<OutboxDepth[]> {
  const unbatched = await unbatchedBySyncType(sql, connectionId);
  const frozen = await frozenCountsBySyncType(sql, connectionId);
  const depth = new Map(
    OBJECT_KINDS.map((kind) => [kind, { kind, unbatched: 0, frozenBatches: 0, frozenItems: 0 }]),
  );
  for (const row of unbatched) {
    const entry = depth.get(kindOfSyncType(row.syncType) ?? ('' as ObjectKindName));
    if (entry) entry.unbatched += row.n;
  }
  for (const row of frozen) {
    const entry = depth.get(kindOfSyncType(row.syncType) ?? ('' as ObjectKindName));
    if (entry) {
      entry.frozenBatches += row.batches;
      entry.frozenItems += row.items;
    }
  }
  return [...depth.values()];
}

/** Counts over the connection's whole ledger: read less often than the outbox (see metrics.ts). */
export async function readLedgerTotals(sql: Sql, connectionId: string): Promise<LedgerTotals[]> {
  const rows = await reportedTotalsBySyncType(sql, connectionId);
  const totals = new Map(
    OBJECT_KINDS.map((kind) => [
      kind,
      { kind, synced: 0, rejected: 0, failed: { user_actionable: 0, transient: 0, needs_integrator: 0 } },
    ]),
  );
  for (const row of rows) {
    const entry = totals.get(kindOfSyncType(row.syncType) ?? ('' as ObjectKindName));
    if (!entry) continue;
    entry.synced += row.synced;
    entry.rejected += row.rejected;
    entry.failed.user_actionable += row.ua;
    entry.failed.transient += row.tr;
    entry.failed.needs_integrator += row.ni;
  }
  return [...totals.values()];
}

/** Latency = answered_at - requested_at of answered requests; one pass, bucketed in Postgres. */
export async function readButtonLatency(
  sql: Sql,
  connectionId: string,
  bucketsSeconds: readonly number[],
): Promise<ButtonLatency> {
  const bounds = [...bucketsSeconds];
  const row = await requestLatencyBuckets(sql, connectionId, bounds);
  const counts = row?.counts ?? [];
  return {
    buckets: bounds.map((le, i) => ({ le, count: Number(counts[i] ?? 0) })),
    count: row?.count ?? 0,
    sumSeconds: Number(row?.sum ?? 0),
    states: { OPEN: row?.open ?? 0, ANSWERED: row?.count ?? 0, EXPIRED: row?.expired ?? 0 },
  };
}

/** When each kind (and the chart, `coa`) last finished a run that succeeded, in Unix seconds. */
export async function readLastSuccess(
  sql: Sql,
  connectionId: string,
): Promise<{ kind: string; at: number }[]> {
  const rows = await sql<{ kind: string; at: number }[]>`
    select kind, extract(epoch from max(finished_at))::float8 as at from runs
    where connection_id = ${connectionId} and status = 'succeeded' and finished_at is not null
    group by kind`;
  return rows.map((r) => ({ kind: r.kind, at: Number(r.at) }));
}
