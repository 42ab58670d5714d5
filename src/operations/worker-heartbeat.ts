import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import type { Logger } from '../log.ts';
import { VERSION } from '../version.ts';

/**
 * Every running worker says so in Redis every few seconds: one field per process in the hash
 * `<QUEUE_PREFIX>:workers`, holding what it runs (the queues it takes jobs from, its schedules,
 * its server) and its own clock at the beat (`beatAt`). `status` and the status page read it to
 * tell whether a worker is up, and take the next scheduled runs from the schedules the workers
 * actually run. A process that stops removes its field; one that dies is ignored once its last
 * beat is HEARTBEAT_STALE_MS old.
 *
 * When a beat arrived is taken from Redis's clock (TIME, in the script that writes it), into the
 * hash `<QUEUE_PREFIX>:workers:heard`, and the reader compares it with Redis's clock too: a worker
 * whose own clock is behind is not taken for a dead one, and the difference between its clock
 * and Redis's is its clock skew, which `status` shows. The field names the process with a random
 * part, so two processes with the same host name and pid (pid 1 in two containers) are two workers.
 */
const HEARTBEAT_EVERY_MS = 5_000;
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

function heartbeatsKey(prefix: string): string {
  return `${prefix}:workers`;
}

/** When each field's latest beat arrived, in ms by Redis's clock. */
function heardKey(prefix: string): string {
  return `${prefix}:workers:heard`;
}

/**
 * Writes one beat and stamps it with Redis's clock; fields not heard from for PRUNE_AFTER_MS (by
 * that clock) are removed. KEYS: the workers' hash, the heard hash; ARGV: field, beat, prune after.
 */
const BEAT_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('HSET', KEYS[2], ARGV[1], now)
local heard = redis.call('HGETALL', KEYS[2])
for i = 1, #heard, 2 do
  if now - tonumber(heard[i + 1]) > tonumber(ARGV[3]) then
    redis.call('HDEL', KEYS[1], heard[i])
    redis.call('HDEL', KEYS[2], heard[i])
  end
end
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
return now`;

export type WorkerParts = Pick<Heartbeat, 'queues' | 'schedules' | 'server'>;

export interface RunningHeartbeat {
  /** Stops beating and removes this process's field (without waiting on a Redis that is down). */
  stop(): Promise<void>;
}

/**
 * Beats now and every HEARTBEAT_EVERY_MS on the worker's own Redis client. A beat never overlaps
 * the previous one (during a Redis outage a command can wait for ~30 s), and a failed beat is
 * left to the Redis watch to report: the worker logs one line per outage, not one per beat.
 * `now` is the worker's own clock (a test gives a skewed one).
 */
export function startHeartbeat(
  redis: Redis,
  prefix: string,
  parts: WorkerParts,
  log: Logger,
  now: () => number = Date.now,
): RunningHeartbeat {
  const keys = [heartbeatsKey(prefix), heardKey(prefix)];
  const field = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const startedAt = new Date(now()).toISOString();
  let pending: Promise<unknown> | null = null;
  const beat = () => {
    if (pending) return;
    const value: Heartbeat = {
      host: hostname(),
      pid: process.pid,
      startedAt,
      beatAt: new Date(now()).toISOString(),
      version: VERSION,
      ...parts,
    };
    pending = redis
      .eval(BEAT_SCRIPT, keys.length, ...keys, field, JSON.stringify(value), PRUNE_AFTER_MS)
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
      const removed = redis.multi().hdel(keys[0]!, field).hdel(keys[1]!, field).exec();
      await Promise.race([removed.catch(() => undefined), late]);
      clearTimeout(bound);
    },
  };
}

function parseBeat(raw: string): Heartbeat | null {
  try {
    const parsed = Heartbeat.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** A worker's beat as read: how long ago it arrived, and how far its clock is from Redis's. */
export interface HeardBeat extends Heartbeat {
  /** Since its latest beat arrived, by Redis's clock. */
  ageMs: number;
  /** Its own clock minus Redis's at that beat (negative: behind); null for a beat without a stamp. */
  clockSkewMs: number | null;
}

/** Redis's clock, in ms (TIME: seconds and microseconds). */
async function redisTime(redis: Pick<Redis, 'time'>): Promise<number> {
  const [seconds, micros] = (await redis.time()) as [number | string, number | string];
  return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
}

/**
 * The workers heard from within HEARTBEAT_STALE_MS, by Redis's clock, oldest start first. A beat
 * without a stamp (written by an older version) is timed by its own beatAt against Redis's clock.
 */
export async function readHeartbeats(
  redis: Pick<Redis, 'hgetall' | 'time'>,
  prefix: string,
): Promise<HeardBeat[]> {
  const [fields, heard, now] = await Promise.all([
    redis.hgetall(heartbeatsKey(prefix)),
    redis.hgetall(heardKey(prefix)),
    redisTime(redis),
  ]);
  const seen: HeardBeat[] = [];
  for (const [field, raw] of Object.entries(fields)) {
    const beat = parseBeat(raw);
    if (!beat) continue;
    const own = Date.parse(beat.beatAt);
    const stamp = heard[field] === undefined ? Number.NaN : Number(heard[field]);
    const stamped = Number.isFinite(stamp);
    const at = stamped ? stamp : own;
    if (now - at > HEARTBEAT_STALE_MS) continue;
    seen.push({ ...beat, ageMs: Math.max(0, now - at), clockSkewMs: stamped ? own - stamp : null });
  }
  return seen.sort((a, b) => a.startedAt.localeCompare(b.startedAt) || a.pid - b.pid);
}
