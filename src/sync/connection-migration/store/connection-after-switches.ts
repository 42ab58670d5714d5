import type { Sql } from 'postgres';

/**
 * Where work addressed to `connectionId` goes once the customer has switched (docs/platform.md
 * G31, last row): the target of the latest recorded switch, when `connectionId` took part in a
 * recorded switch (as the connection left, or as an earlier target) and is not that target. Null
 * when no recorded switch concerns it. A deployment serves one customer, so the latest switch
 * names the connection in use; a later migration back is followed the same way.
 */
export async function connectionAfterSwitches(sql: Sql, connectionId: string): Promise<string | null> {
  const [row] = await sql<{ target: string }[]>`
    with latest as (
      select target_connection_id as target from migrations
       where state = 'switched' and target_connection_id is not null
       order by finished_at desc nulls last, id desc
       limit 1)
    select target from latest
     where target <> ${connectionId}
       and exists (
         select 1 from migrations
          where state = 'switched'
            and (source_connection_id = ${connectionId} or target_connection_id = ${connectionId}))`;
  return row?.target ?? null;
}
