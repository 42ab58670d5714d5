import type { Sql } from 'postgres';

/**
 * Results of the connection being left that the platform has not acknowledged yet: frozen
 * batches not sent, and ledger rows written to the ERP (or refused) but not yet in a batch.
 * After the switch they could no longer be reported, so they count as outstanding.
 */
export async function unsentResults(
  sql: Sql,
  connectionId: string,
): Promise<{ batches: number; rows: number }> {
  const [row] = await sql<{ batches: number; rows: number }[]>`
    select
      (select count(*)::int from result_batches where connection_id = ${connectionId} and state = 'FROZEN') as batches,
      (select count(*)::int from sync_ledger where connection_id = ${connectionId} and state <> 'REPORTED') as rows`;
  return row ?? { batches: 0, rows: 0 };
}
