import type { Sql } from 'postgres';

/** One step of the frozen-batch backlog: the most waiting at any moment of it, and at its end. */
export interface BacklogStep {
  step: number;
  peak: number;
  last: number;
}

/**
 * The frozen-batch backlog between `from` and `to`, in `steps` steps of `stepMs`, from the
 * batches' own times (frozen at created_at, gone at acked_at): each batch adds its items when
 * frozen and takes them away when acknowledged; per step in which that running sum changed, its
 * peak and its last value. Steps without a change are absent.
 */
export async function backlogBySteps(
  sql: Sql,
  connectionId: string,
  window: { from: Date; to: Date; stepMs: number; steps: number },
): Promise<BacklogStep[]> {
  const { from, to, steps } = window;
  return sql<BacklogStep[]>`
    with batches as (
      select created_at, acked_at, item_count from result_batches
      where connection_id = ${connectionId} and created_at <= ${to}
        and (state = 'FROZEN' or acked_at > ${from})
    ), events as (
      select greatest(created_at, ${from}::timestamptz) as at, item_count as delta from batches
      union all
      select acked_at, -item_count from batches where acked_at is not null and acked_at <= ${to}
    ), running as (
      select at, delta, sum(delta) over (order by at, delta desc rows unbounded preceding) as depth from events
    )
    select least(floor(extract(epoch from at - ${from}::timestamptz) * 1000 / ${window.stepMs})::int, ${steps - 1}) as step,
      max(depth)::int as peak, (array_agg(depth order by at desc, delta asc))[1]::int as last
    from running group by 1 order by 1`;
}
