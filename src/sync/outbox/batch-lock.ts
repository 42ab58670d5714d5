import type { Sql } from 'postgres';

/**
 * Runs `send` for a frozen batch while holding the batch's lock, unless the batch was
 * acknowledged meanwhile (then `send` is not run and the answer is false). Every process of a
 * shared run (and a sync-button run beside a bulk one) lists the connection's frozen batches, so
 * two may hold the same batch: the second waits for the first to post and acknowledge it, then
 * finds it acknowledged. The lock is a transaction's advisory lock, so a process that dies
 * releases it with its connection; `send` acknowledges through the pool as usual (an advisory
 * lock blocks no row).
 */
export async function whileBatchFrozen(
  sql: Sql,
  batchId: string,
  send: () => Promise<void>,
): Promise<boolean> {
  return sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(hashtext(${`ledgersync:result-batch:${batchId}`}))`;
    const [row] = await tx<{ state: string }[]>`select state from result_batches where id = ${batchId}`;
    if (row?.state !== 'FROZEN') return false;
    await send();
    return true;
  }) as Promise<boolean>;
}
