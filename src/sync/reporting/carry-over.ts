// Moving a connection's frozen batches to the connection that replaces it (a connection
// migration's switch, src/sync/connection-migration/store.ts, in its own transaction).
import type { TransactionSql } from 'postgres';

/**
 * Batches of `source` frozen but not yet acknowledged become `target`'s, to be sent from there
 * exactly as frozen. Returns how many moved.
 */
export async function carryOverFrozenBatches(
  tx: TransactionSql,
  connections: { source: string; target: string },
): Promise<number> {
  const { source, target } = connections;
  const batches = await tx`
      update result_batches set connection_id = ${target}
       where connection_id = ${source} and state = 'FROZEN'`;
  return batches.count;
}
