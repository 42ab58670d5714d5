import type { Sql } from 'postgres';

/**
 * Marks a frozen batch acknowledged and its ledger rows REPORTED, in one transaction. `response`
 * is the platform's answer, or null when the platform said the key was already applied and the
 * first answer was lost (PLATFORM-FACTS F15). Acknowledging twice changes nothing.
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
          acked_at = now(), last_error = null
      where id = ${batchId} and state = 'FROZEN'`;
    if (updated.count === 0) return false;
    await tx`update sync_ledger set state = 'REPORTED', updated_at = now() where batch_id = ${batchId} and state in ('IN_ERP', 'FAILED')`;
    return true;
  }) as Promise<boolean>;
}

/** Notes why a send failed (it stays FROZEN and is resent as is). */
export async function noteBatchFailure(sql: Sql, batchId: string, message: string): Promise<void> {
  await sql`update result_batches set attempts = attempts + 1, last_error = ${message} where id = ${batchId} and state = 'FROZEN'`;
}
