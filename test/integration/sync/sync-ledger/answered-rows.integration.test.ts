import type { TransactionSql } from 'postgres';
import { beforeAll, describe, expect, it } from 'vitest';
import { settleAnsweredRows } from '../../../../src/sync/sync-ledger/answered-rows.ts';
import { useTestDatabase } from '../../../support/db.ts';

const db = useTestDatabase();
const connectionId = 'conn-settle';
const scope = { connectionId, objectType: 'REIMBURSEMENT', syncType: 'REIMBURSEMENT_SYNC' };
/** Results of another sync type in the same connection's ledger: what a bulk sync leaves. */
const OTHER_RESULTS = 20_000;

/**
 * The ledger as a press finds it while a bulk sync of transactions runs: many results of another
 * type, 490 reimbursement results, and 25 reimbursement rows requested, 15 of them answered by a
 * result acknowledged after the read that listed them. Statistics are taken at the end, as
 * autoanalyze does while the ledger grows.
 */
beforeAll(async () => {
  const sql = db.sql;
  await sql`
    insert into result_batches (connection_id, sync_type, body, idempotency_key, item_count, state, acked_at)
    select ${connectionId}, 'TRANSACTION_SYNC', '{}'::jsonb, 'settle-txn-' || g, 5000, 'ACKED', now()
    from generate_series(1, 4) g`;
  const [batch] = await sql<{ id: string }[]>`
    insert into result_batches (connection_id, sync_type, body, idempotency_key, item_count, state, acked_at)
    values (${connectionId}, 'REIMBURSEMENT_SYNC', '{}'::jsonb, 'settle-reimb', 490, 'ACKED', now())
    returning id`;
  await sql`
    insert into sync_ledger (connection_id, object_id, sync_type, state, batch_id)
    select ${connectionId}, 'txn_' || g, 'TRANSACTION_SYNC', 'REPORTED',
           (select min(id) from result_batches where sync_type = 'TRANSACTION_SYNC')
    from generate_series(1, ${OTHER_RESULTS}) g`;
  await sql`
    insert into sync_ledger (connection_id, object_id, sync_type, state, batch_id)
    select ${connectionId}, 'rb_' || g, 'REIMBURSEMENT_SYNC', 'REPORTED', ${batch!.id}
    from generate_series(1, 490) g`;
  await sql`
    insert into sync_request_rows
      (connection_id, object_type, object_id, state, seen_from, first_seen_by, last_seen_from, last_seen)
    select ${connectionId}, 'REIMBURSEMENT', 'rb_' || g, case when g > 475 then 'REQUESTED' else 'GONE' end,
           now() - interval '1 hour', now() - interval '1 hour', now() - interval '1 hour', now() - interval '1 hour'
    from generate_series(1, 500) g`;
  await sql`analyze sync_ledger`;
  await sql`analyze sync_request_rows`;
  await sql`analyze result_batches`;
});

describe('settling the requested rows a result answered (docs/platform.md G28)', () => {
  it('G28: ends the streak of each requested row whose result was acknowledged, reading the ledger by those rows only', async () => {
    const { settled, ledgerEntriesRead } = await db.sql.begin(async (tx) => {
      // A prepared statement's generic plan, as a worker gets after a few presses.
      await tx`set local plan_cache_mode = force_generic_plan`;
      const before = await pkeyEntriesRead(tx);
      const count = await settleAnsweredRows(tx, scope);
      return { settled: count, ledgerEntriesRead: (await pkeyEntriesRead(tx)) - before };
    });
    expect(settled).toBe(15);
    const rows = await db.sql<{ object_id: string; state: string }[]>`
      select object_id, state from sync_request_rows
      where connection_id = ${connectionId} and object_id in ('rb_476', 'rb_490', 'rb_491', 'rb_500')
      order by object_id`;
    expect(rows).toEqual([
      { object_id: 'rb_476', state: 'GONE' },
      { object_id: 'rb_490', state: 'GONE' },
      { object_id: 'rb_491', state: 'REQUESTED' },
      { object_id: 'rb_500', state: 'REQUESTED' },
    ]);
    // One look-up per requested row: not the connection's results of the type (490), nor its whole ledger.
    expect(ledgerEntriesRead).toBeLessThanOrEqual(25);
  });
});

/** Index entries this transaction has read from the ledger's primary key so far. */
async function pkeyEntriesRead(tx: TransactionSql): Promise<number> {
  const [row] = await tx<{ n: number }[]>`
    select pg_stat_get_xact_tuples_returned('sync_ledger_pkey'::regclass)::int as n`;
  return row!.n;
}
