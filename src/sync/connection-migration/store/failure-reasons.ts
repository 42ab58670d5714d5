import type { Sql } from 'postgres';

/** The last recorded failure message of each object, to say why it is still waiting. */
export async function failureReasons(
  sql: Sql,
  connectionId: string,
  objectIds: string[],
): Promise<Map<string, string>> {
  if (objectIds.length === 0) return new Map();
  const rows = await sql<{ object_id: string; error_message: string }[]>`
    select distinct on (object_id) object_id, error_message from sync_ledger
    where connection_id = ${connectionId} and object_id = any(${objectIds}::text[])
      and outcome = 'failure' and error_message is not null
    order by object_id, updated_at desc`;
  return new Map(rows.map((r) => [r.object_id, r.error_message]));
}
