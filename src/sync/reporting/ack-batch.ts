import type { Sql } from 'postgres';
import { markBatchReported, reportAppliedAsSent, reportItemResults } from './ledger-batches.ts';

/**
 * Marks a frozen batch acknowledged and its ledger rows REPORTED, in one transaction. `response`
 * is the platform's answer, or null when the platform said the key was already applied and the
 * first answer was lost (docs/platform.md F15). Each row keeps what the platform did with it: the
 * per-item result when the answer has one, otherwise "applied as sent" (F33). Acknowledging twice
 * changes nothing: a sender whose lease lapsed while its post was on its way (batch-lease.ts)
 * finds the batch acknowledged by the one that took it over, or the other way round. The lease
 * goes with the acknowledgement, whoever held it.
 */
export async function ackBatch(
  sql: Sql,
  batchId: string,
  ack: { syncId: string | null; response: unknown | null },
): Promise<boolean> {
  return sql.begin(async (tx) => {
    const updated = await tx`
      update result_batches
      set state = 'ACKED', sync_id = ${ack.syncId}, response = ${ack.response === null ? null : tx.json(ack.response as never)},
          acked_at = now(), last_error = null, lease_owner = null, lease_until = null
      where id = ${batchId} and state = 'FROZEN'`;
    if (updated.count === 0) return false;
    const results = resultsOf(ack.response);
    if (results.length === 0) {
      // docs/platform.md F15, F33: an answer without per-item results (the published `{sync_id}`,
      // or a replay whose first answer was lost) means every item was applied as sent.
      await reportAppliedAsSent(tx, batchId);
    } else {
      await reportItemResults(tx, batchId, results);
      await markBatchReported(tx, batchId);
    }
    return true;
  }) as Promise<boolean>;
}

/** F14 per-item results of a sync answer (none when the answer was lost: F15 "already applied"). */
function resultsOf(response: unknown): { id: string; status: string; reason?: string }[] {
  const results = (response as { results?: unknown } | null)?.results;
  if (!Array.isArray(results)) return [];
  return results.filter(
    (r): r is { id: string; status: string; reason?: string } =>
      typeof r?.id === 'string' && ['SYNCED', 'FAILED', 'REJECTED'].includes(r?.status),
  );
}

/**
 * Notes why a send failed (it stays FROZEN and is resent as is) and releases `owner`'s lease, so
 * a sender waiting for the batch takes it at once. A lease `owner` no longer holds (it lapsed and
 * another sender took the batch over) is left alone.
 */
export async function noteBatchFailure(
  sql: Sql,
  batchId: string,
  message: string,
  owner: string,
): Promise<void> {
  await sql`
    update result_batches
       set attempts = attempts + 1, last_error = ${message},
           lease_until = case when lease_owner = ${owner} then null else lease_until end,
           lease_owner = case when lease_owner = ${owner} then null else lease_owner end
     where id = ${batchId} and state = 'FROZEN'`;
}
