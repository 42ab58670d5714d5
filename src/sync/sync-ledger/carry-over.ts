// Moving a connection's unfinished ledger rows to the connection that replaces it (a connection
// migration's switch, src/sync/connection-migration/store.ts, in its own transaction).
import type { TransactionSql } from 'postgres';

/**
 * Rows of `source` not yet REPORTED (claimed, in the ERP, or refused, waiting in the outbox)
 * become `target`'s, to be finished and reported from there. Returns how many moved.
 */
export async function carryOverUnreportedRows(
  tx: TransactionSql,
  connections: { source: string; target: string },
): Promise<number> {
  const { source, target } = connections;
  // A row the new connection already has (it cannot, before this commit) is left where it is.
  const ledgerRows = await tx`
      update sync_ledger l set connection_id = ${target}, updated_at = now()
       where l.connection_id = ${source} and l.state <> 'REPORTED'
         and not exists (
           select 1 from sync_ledger n
            where n.connection_id = ${target} and n.object_id = l.object_id and n.sync_type = l.sync_type)`;
  return ledgerRows.count;
}
