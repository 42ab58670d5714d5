import type { Sql } from 'postgres';
import type { ErrorCategory } from '../erp/index.ts';
import type { TokenRekey } from '../platform/index.ts';
import { chartCounts } from '../sync/mirror/index.ts';
import { kindOfSyncType, kindSpec, OBJECT_KINDS, type ObjectKindName } from '../sync/objects/index.ts';
import { requestStats } from '../sync/sync-button/index.ts';
import { outcomeCounts, recentActionableFailures, topFailureReasons } from '../sync/sync-ledger/index.ts';
import { type Health, type HealthSources, readHealth } from './health.ts';
import { readStatusHistory, type StatusHistory } from './status-history.ts';

interface FailureReason {
  category: string;
  message: string;
  count: number;
}

export interface KindStatus {
  kind: ObjectKindName;
  synced: number;
  /** Results the platform refused (docs/platform.md F14 REJECTED): not synced, though the ERP holds them. */
  rejected: number;
  failed: Record<ErrorCategory, number>;
  topReasons: FailureReason[];
  /** Outcomes known but not yet acknowledged by the platform (unbatched rows + frozen batches). */
  pendingInOutbox: number;
  /**
   * Times are ISO 8601 (UTC). `status` is the run's own (running, succeeded, failed); `outcome`
   * says what it achieved: a run that finished with objects failing is not shown as a success.
   */
  lastRun: {
    startedAt: string;
    finishedAt: string | null;
    status: string;
    outcome: string;
    trigger: string;
  } | null;
}

export interface StatusReport {
  /** When the report was read (ISO 8601, UTC): ages are counted from here. */
  generatedAt: string;
  connectionId: string | null;
  /** Whether syncs happen: workers, queues, last good and next scheduled run per kind. */
  health: Health;
  /** The series the status page draws (runs, sync-button latency, outbox depth). */
  history: StatusHistory;
  kinds: KindStatus[];
  /** Objects marked synced outside ledgersync and not yet acknowledged (reconcile). */
  externalSyncs: number;
  syncButton: {
    answered: number;
    open: number;
    expired: number;
    p50Ms: number | null;
    p99Ms: number | null;
    /**
     * Presses the watchdog answered before every requested row could be read (the platform's
     * reads too slow for the window): the rows read were answered, the rest expired on the
     * platform and wait for the next sync. The latest one's press time.
     */
    cutShort: number;
    lastCutShortAt: string | null;
  };
  chart: { kind: string; mirrored: number; failing: number }[];
  recentFailures: { kind: string; objectId: string; category: string; message: string; at: string }[];
  /**
   * PLATFORM_GRANT=authorization_code, from `status` (which re-encrypts first): stored values moved
   * to TOKEN_ENCRYPTION_KEY just now, those still needing an old key, whether old keys are set.
   */
  tokenEncryption?: TokenRekey;
}

async function kindStatus(sql: Sql, connectionId: string, kind: ObjectKindName): Promise<KindStatus> {
  const types = [...kindSpec(kind).syncTypes];
  const counts = await outcomeCounts(sql, connectionId, types);
  const reasons: FailureReason[] = await topFailureReasons(sql, connectionId, types);
  const [run] = await sql<
    {
      startedAt: Date;
      finishedAt: Date | null;
      status: string;
      trigger: string;
      counts: { read?: number; posted?: number; failed?: number } | null;
    }[]
  >`
    select started_at as "startedAt", finished_at as "finishedAt", status, trigger, counts from runs
    where connection_id = ${connectionId} and kind = ${kind} order by started_at desc limit 1`;
  return {
    kind,
    synced: counts?.synced ?? 0,
    rejected: counts?.rejected ?? 0,
    failed: {
      user_actionable: counts?.ua ?? 0,
      transient: counts?.tr ?? 0,
      needs_integrator: counts?.ni ?? 0,
    },
    topReasons: reasons.map((r) => ({ ...r })),
    pendingInOutbox: counts?.pending ?? 0,
    lastRun: run
      ? {
          status: run.status,
          outcome: runOutcome(run.status, run.counts ?? {}),
          trigger: run.trigger,
          startedAt: isoTime(run.startedAt),
          finishedAt: run.finishedAt ? isoTime(run.finishedAt) : null,
        }
      : null,
  };
}

async function syncButtonStats(sql: Sql, connectionId: string): Promise<StatusReport['syncButton']> {
  const row = await requestStats(sql, connectionId);
  const ms = (v: number | null | undefined) => (v === null || v === undefined ? null : Math.round(Number(v)));
  return {
    answered: row?.answered ?? 0,
    open: row?.open ?? 0,
    expired: row?.expired ?? 0,
    p50Ms: ms(row?.p50),
    p99Ms: ms(row?.p99),
    cutShort: row?.cut_short ?? 0,
    lastCutShortAt: row?.last_cut_short ? isoTime(row.last_cut_short) : null,
  };
}

/**
 * Everything `status` and the status page show for one connection: the worker's own tables, and
 * its queues and heartbeats in Redis (`sources`).
 */
export async function statusReport(
  sql: Sql,
  /** null: no connection recorded yet (a revoked consent met first); the grant's problem still shows. */
  connection: string | null,
  sources: HealthSources,
  now = Date.now(),
): Promise<StatusReport> {
  // No connection has an empty id: with none recorded, every per-connection count is empty.
  const connectionId = connection ?? '';
  const kinds = [];
  for (const kind of OBJECT_KINDS) kinds.push(await kindStatus(sql, connectionId, kind));
  const [external] = await sql<
    { n: number }[]
  >`select count(*)::int as n from external_syncs where connection_id = ${connectionId} and acknowledged_at is null`;
  const chart = await chartCounts(sql, connectionId);
  const recent = await recentActionableFailures(sql, connectionId);
  return {
    generatedAt: new Date(now).toISOString(),
    connectionId: connection,
    health: await readHealth(sql, connectionId, sources, kinds, now),
    history: await readStatusHistory(sql, connectionId, now),
    kinds,
    externalSyncs: external?.n ?? 0,
    syncButton: await syncButtonStats(sql, connectionId),
    chart: chart.map((c) => ({ ...c })),
    recentFailures: recent.map((r) => ({
      kind: kindOfSyncType(r.syncType) ?? 'transactions',
      objectId: r.objectId,
      category: r.category,
      message: r.message,
      at: String(r.at),
    })),
  };
}

/** ISO 8601 in UTC, whatever the driver handed back (a Date, or text). */
export function isoTime(value: Date | string): string {
  return new Date(value).toISOString();
}

/** What a run achieved, in words: a finished run whose objects all failed did not succeed. */
export function runOutcome(
  status: string,
  counts: { read?: number; posted?: number; failed?: number },
): string {
  if (status !== 'succeeded') return status;
  const failed = counts.failed ?? 0;
  const posted = counts.posted ?? 0;
  if (failed > 0 && posted === 0) return `failed: all ${failed} objects failed`;
  if (failed > 0) return `completed with ${failed} failed`;
  return 'succeeded';
}
