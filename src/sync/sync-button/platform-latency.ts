import { randomUUID } from 'node:crypto';
import type { Sql } from 'postgres';
import type { ReadPage, SyncPlatform } from '../objects/index.ts';
import type { LatencySeen } from './watchdog-lead.ts';

/**
 * The platform latency the sync button has seen, kept in PostgreSQL (`platform_latency`): the
 * watchdog's start is set from it (watchdog-lead.ts) by whichever process wakes the watchdog, and
 * a restart must not forget a slow platform. The Prometheus histogram of request durations
 * (src/operations/platform-metrics.ts) is per process and lost on restart, so it cannot serve.
 * Samples are the sync button's own calls: each page of a read of the requested rows (rate-limit
 * wait included: it delays the answer just the same) and each result post.
 */

/** Samples older than this do not count (and are pruned): a slow hour long gone says nothing now. */
const RECENT = '30 minutes';

type Call = 'read_page' | 'sync_post';

async function record(
  sql: Sql,
  connectionId: string,
  sample: { call: Call; pass: string | null; durationMs: number; items: number },
): Promise<void> {
  try {
    await sql`
      insert into platform_latency (connection_id, call, pass, duration_ms, items)
      values (${connectionId}, ${sample.call}, ${sample.pass}, ${Math.round(sample.durationMs)}, ${sample.items})`;
    if (sample.call === 'sync_post') {
      await sql`delete from platform_latency where connection_id = ${connectionId} and at < now() - interval '1 hour'`;
    }
  } catch {
    // A sample lost costs the next watchdog some precision, never the answer it is part of.
  }
}

/**
 * A read of requested rows, timed page by page: how long each page took to arrive. The pages of
 * one pass share a pass id, so the watchdog can count how many pages a pass of this kind takes
 * (a pass still under way counts what it has read so far).
 */
export async function* timedPages(
  sql: Sql,
  connectionId: string,
  pages: AsyncIterable<ReadPage>,
): AsyncGenerator<ReadPage> {
  const pass = randomUUID();
  const iterator = pages[Symbol.asyncIterator]();
  try {
    for (;;) {
      const started = performance.now();
      const next = await iterator.next();
      if (next.done) return;
      await record(sql, connectionId, {
        call: 'read_page',
        pass,
        durationMs: performance.now() - started,
        items: next.value.items.length,
      });
      yield next.value;
    }
  } finally {
    await iterator.return?.();
  }
}

/** The platform port with every result post timed and recorded. */
export function timedPosts(sql: Sql, connectionId: string, platform: SyncPlatform): SyncPlatform {
  return {
    ...platform,
    postSyncs: async (body) => {
      const started = performance.now();
      const outcome = await platform.postSyncs(body);
      await record(sql, connectionId, {
        call: 'sync_post',
        pass: null,
        durationMs: performance.now() - started,
        items: (body.successful_syncs?.length ?? 0) + (body.failed_syncs?.length ?? 0),
      });
      return outcome;
    },
  };
}

/**
 * What the recent samples say: the slowest page and post, and the largest pass (pages, rows). The
 * slowest rather than the mean: the watchdog must be in time when the platform is at its worst.
 */
export async function latencySeen(sql: Sql, connectionId: string): Promise<LatencySeen> {
  const [row] = await sql<
    { read_page_ms: number | null; post_ms: number | null; pages: number | null; rows: number | null }[]
  >`
    with recent as (
      select * from platform_latency where connection_id = ${connectionId} and at > now() - ${RECENT}::interval
    ), passes as (
      select count(*)::int as pages, sum(items)::int as rows from recent where call = 'read_page' group by pass
    )
    select (select max(duration_ms) from recent where call = 'read_page')::int as read_page_ms,
           (select max(duration_ms) from recent where call = 'sync_post')::int as post_ms,
           (select max(pages) from passes)::int as pages,
           (select max(rows) from passes)::int as rows`;
  return {
    readPageMs: row?.read_page_ms ?? null,
    postMs: row?.post_ms ?? null,
    pages: row?.pages ?? null,
    rows: row?.rows ?? null,
  };
}
