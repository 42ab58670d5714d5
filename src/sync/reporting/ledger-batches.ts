// The sync ledger's batch columns (batch_id, the reported state and the platform's answer per row):
// which known outcomes wait for a batch, which batch took them, and what the platform answered for
// each. Reporting owns them with result_batches, so freezing and acknowledging a batch is one
// module's transaction (freeze-batch.ts, ack-batch.ts).
import type { Sql, TransactionSql } from 'postgres';

/** Which outcomes: one sync type of a connection, and one sync-button request or none. */
export interface OutboxScope {
  connectionId: string;
  syncType: string;
  syncRequestId: string | null;
}

/** A known outcome not yet in a batch: what a result batch says of its object. */
export interface UnbatchedOutcome {
  object_id: string;
  outcome: 'success' | 'failure';
  reference_id: string | null;
  deep_link_url: string | null;
  error_message: string | null;
}

/** How many known outcomes of the scope wait for a batch. */
export async function countUnbatchedOutcomes(
  sql: Sql | TransactionSql,
  scope: { connectionId: string; syncType: string; syncRequestId?: string | undefined },
): Promise<number> {
  const { connectionId, syncType, syncRequestId } = scope;
  const [row] = await sql<{ n: number }[]>`
    select count(*)::int as n from sync_ledger
    where connection_id = ${connectionId} and sync_type = ${syncType}
      and state in ('IN_ERP', 'FAILED') and batch_id is null
      and sync_request_id is not distinct from ${syncRequestId ?? null}`;
  return row?.n ?? 0;
}

/**
 * Up to `limit` outcomes of the scope not yet in a batch, by object id, locked for the caller's
 * transaction. SKIP LOCKED: outcomes another transaction is freezing are left to it, so two
 * freezers never put one outcome in two batches.
 */
export async function lockUnbatchedOutcomes(
  tx: TransactionSql,
  scope: OutboxScope,
  limit: number,
): Promise<UnbatchedOutcome[]> {
  const { connectionId, syncType, syncRequestId } = scope;
  return tx<UnbatchedOutcome[]>`
      select object_id, outcome, reference_id, deep_link_url, error_message
      from sync_ledger
      where connection_id = ${connectionId} and sync_type = ${syncType}
        and state in ('IN_ERP', 'FAILED') and batch_id is null
        and sync_request_id is not distinct from ${syncRequestId}
      order by object_id
      limit ${limit}
      for update skip locked`;
}

/** Ties the outcomes of these objects to the batch just frozen from them. */
export async function assignToBatch(
  tx: TransactionSql,
  scope: { connectionId: string; syncType: string },
  objectIds: readonly string[],
  batchId: string,
): Promise<number> {
  const { connectionId, syncType } = scope;
  const updated = await tx`
      update sync_ledger set batch_id = ${batchId}, updated_at = now()
      where connection_id = ${connectionId} and sync_type = ${syncType}
        and object_id = any(${tx.array(objectIds as string[])}::text[])`;
  return updated.count;
}

/**
 * The batch was acknowledged: its outcomes are REPORTED. The functions below do this in the same
 * statement that records what the platform did with each row (one new row version, not two);
 * this one catches rows of the batch an answer left out.
 */
export async function markBatchReported(tx: TransactionSql, batchId: string): Promise<number> {
  const updated =
    await tx`update sync_ledger set state = 'REPORTED', updated_at = now() where batch_id = ${batchId} and state in ('IN_ERP', 'FAILED')`;
  return updated.count;
}

/**
 * The platform applied every item of the batch as sent (docs/platform.md F15, F33): a success is
 * SYNCED, a failure FAILED, and no reason is kept. Every row of the batch is REPORTED.
 */
export async function reportAppliedAsSent(tx: TransactionSql, batchId: string): Promise<number> {
  const updated = await tx`
        update sync_ledger
        set platform_status = case when outcome = 'success' then 'SYNCED' else 'FAILED' end,
            platform_reason = null,
            state = case when state in ('IN_ERP', 'FAILED') then 'REPORTED' else state end,
            updated_at = case when state in ('IN_ERP', 'FAILED') then now() else updated_at end
        where batch_id = ${batchId}`;
  return updated.count;
}

/**
 * What the platform did with each item of the batch (docs/platform.md F14 per-item results); the
 * rows named are REPORTED. Rows the answer leaves out: markBatchReported.
 */
export async function reportItemResults(
  tx: TransactionSql,
  batchId: string,
  results: readonly { id: string; status: string; reason?: string | undefined }[],
): Promise<number> {
  const updated = await tx`
        update sync_ledger as l
        set platform_status = r.status, platform_reason = r.reason,
            state = case when l.state in ('IN_ERP', 'FAILED') then 'REPORTED' else l.state end,
            updated_at = case when l.state in ('IN_ERP', 'FAILED') then now() else l.updated_at end
        from unnest(${tx.array(results.map((r) => r.id))}::text[], ${tx.array(results.map((r) => r.status))}::text[],
                    ${tx.array(results.map((r) => r.reason ?? '') as string[])}::text[]) as r(id, status, reason)
        where l.batch_id = ${batchId} and l.object_id = r.id`;
  return updated.count;
}
