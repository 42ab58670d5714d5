import type { Sql } from 'postgres';

/**
 * Remembers the platform's connection ids before the first request for a new connection; kept
 * from the first call on (later calls change nothing), so a connection created by a run that
 * crashed before recording it is the one new id, and is adopted rather than created again.
 */
export async function snapshotConnections(sql: Sql, id: string, connectionIds: string[]): Promise<string[]> {
  const [row] = await sql<{ connections_before: string[] }[]>`
    update migrations set connections_before = coalesce(connections_before, ${connectionIds}::text[])
    where id = ${id}
    returning connections_before`;
  return row?.connections_before ?? connectionIds;
}
