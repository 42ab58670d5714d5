import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import type { Logger } from '../../log.ts';

/**
 * Every running worker says so in Redis every few seconds: one field per process in the hash
 * `<QUEUE_PREFIX>:workers`, holding what it runs (the queues it takes jobs from, its schedules,
 * its server). `status` and the status page read it to tell whether a worker is up, and take the
 * next scheduled runs from the schedules the workers actually run. A process that stops removes
 * its field; one that dies is ignored once its last beat is HEARTBEAT_STALE_MS old.
 */
export const HEARTBEAT_EVERY_MS = 5_000;
/** Four missed beats: a worker busy with a long page still beats (the timer is not blocked long). */
export const HEARTBEAT_STALE_MS = 20_000;
/** Fields older than this are removed by the next beat of any worker. */
const PRUNE_AFTER_MS = 10 * 60_000;

/** The cron expressions a worker runs (jobs/schedules.ts), and the zone it reads them in. */
export const ScheduleSeen = z.object({
  objectSyncWeekdays: z.string(),
  objectSyncWeekends: z.string(),
  coaMirror: z.string(),
  timezone: z.string(),
});
export type ScheduleSeen = z.infer<typeof ScheduleSeen>;

export const Heartbeat = z.object({
  host: z.string(),
  pid: z.number().int(),
  version: z.string(),
  startedAt: z.iso.datetime(),
  beatAt: z.iso.datetime(),
  /** Queue names it takes jobs from (empty with --no-workers). */
  queues: z.array(z.string()),
  /** Null with --no-schedules. */
  schedules: ScheduleSeen.nullable(),
  /** Whether it runs the HTTP server (webhooks, status page, metrics). */
  server: z.boolean(),
});
export type Heartbeat = z.infer<typeof Heartbeat>;

export function heartbeatsKey(prefix: string): string {
  return `${prefix}:workers`;
}

export type WorkerParts = Pick<Heartbeat, 'queues' | 'schedules' | 'server'>;

const { version } = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

export interface RunningHeartbeat {
  /** Stops beating and removes this process's field (without waiting on a Redis that is down). */
  stop(): Promise<void>;
}

/**
 * Beats now and every HEARTBEAT_EVERY_MS on the worker's own Redis client. A beat never overlaps
 * the previous one (during a Redis outage a command can wait for ~30 s), and a failed beat is
 * left to the Redis watch to report: the worker logs one line per outage, not one per beat.
 */
export function startHeartbeat(
  redis: Redis,
  prefix: string,
  parts: WorkerParts,
  log: Logger,
): RunningHeartbeat {
  const key = heartbeatsKey(prefix);
  const field = `${hostname()}:${process.pid}`;
  const startedAt = new Date().toISOString();
  let pending: Promise<unknown> | null = null;
  let beats = 0;
  const beat = () => {
    if (pending) return;
    const now = Date.now();
    const value: Heartbeat = {
      host: hostname(),
      pid: process.pid,
      startedAt,
      beatAt: new Date(now).toISOString(),
      version,
      ...parts,
    };
    const prune = beats++ % 12 === 0;
    pending = (async () => {
      await redis.multi().hset(key, field, JSON.stringify(value)).pexpire(key, PRUNE_AFTER_MS).exec();
      if (prune) await pruneStale(redis, key, now);
    })()
      .catch((error: unknown) => log.debug({ err: error }, 'heartbeat not written'))
      .finally(() => {
        pending = null;
      });
  };
  beat();
  const timer = setInterval(beat, HEARTBEAT_EVERY_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      if (redis.status !== 'ready') return;
      let bound: NodeJS.Timeout | undefined;
      const late = new Promise<void>((resolve) => {
        bound = setTimeout(resolve, 1_000);
      });
      await Promise.race([redis.hdel(key, field).catch(() => undefined), late]);
      clearTimeout(bound);
    },
  };
}

async function pruneStale(redis: Pick<Redis, 'hgetall' | 'hdel'>, key: string, now: number): Promise<void> {
  const fields = await redis.hgetall(key);
  const stale = Object.entries(fields)
    .filter(([, raw]) => {
      const beat = parseBeat(raw);
      return !beat || now - Date.parse(beat.beatAt) > PRUNE_AFTER_MS;
    })
    .map(([field]) => field);
  if (stale.length > 0) await redis.hdel(key, ...stale);
}

function parseBeat(raw: string): Heartbeat | null {
  try {
    const parsed = Heartbeat.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The workers heard from within HEARTBEAT_STALE_MS of `now`, oldest start first. */
export async function readHeartbeats(
  redis: Pick<Redis, 'hgetall'>,
  prefix: string,
  now = Date.now(),
): Promise<Heartbeat[]> {
  const fields = await redis.hgetall(heartbeatsKey(prefix));
  return Object.values(fields)
    .map(parseBeat)
    .filter((beat): beat is Heartbeat => beat !== null && now - Date.parse(beat.beatAt) <= HEARTBEAT_STALE_MS)
    .sort((a, b) => a.startedAt.localeCompare(b.startedAt) || a.pid - b.pid);
}
