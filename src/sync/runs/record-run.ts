import type { Sql } from 'postgres';

/** Starts a run row (what ran, why), for status and the dashboard. */
async function startRun(
  sql: Sql,
  run: { connectionId: string | null; kind: string; trigger: string },
): Promise<string> {
  const [row] = await sql<{ id: string }[]>`
    insert into runs (connection_id, kind, trigger) values (${run.connectionId}, ${run.kind}, ${run.trigger}) returning id`;
  return String(row!.id);
}

/** Finishes a run with its counts, or its error (already scrubbed of secrets by the caller). */
async function finishRun(
  sql: Sql,
  id: string,
  result: { status: 'succeeded' | 'failed'; counts?: Record<string, unknown>; error?: string },
): Promise<void> {
  await sql`
    update runs set finished_at = now(), status = ${result.status},
      counts = ${sql.json((result.counts ?? {}) as never)}, error = ${result.error ?? null}
    where id = ${id} and status = 'running'`;
}

/** Runs fn as a recorded run. */
export async function recorded<T extends object>(
  sql: Sql,
  run: { connectionId: string | null; kind: string; trigger: string },
  fn: () => Promise<T>,
): Promise<T> {
  const id = await startRun(sql, run);
  try {
    const value = await fn();
    await finishRun(sql, id, { status: 'succeeded', counts: value as Record<string, unknown> });
    return value;
  } catch (error) {
    await finishRun(sql, id, {
      status: 'failed',
      error: error instanceof Error ? error.message : String(error),
    });
    throw error;
  }
}

/**
 * A run that did not start because nothing could succeed (the business's consent is revoked):
 * recorded finished with its reason, done nothing (`busy`, so it is never the last good run),
 * instead of a failed run at every schedule tick.
 */
export async function recordPausedRun(
  sql: Sql,
  run: { connectionId: string | null; kind: string; trigger: string },
  reason: string,
): Promise<void> {
  await sql`
    insert into runs (connection_id, kind, trigger, finished_at, status, counts)
    values (${run.connectionId}, ${run.kind}, ${run.trigger}, now(), 'succeeded',
      ${sql.json({ busy: true, paused: reason })})`;
}
