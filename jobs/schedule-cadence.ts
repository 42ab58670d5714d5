import cron from 'node-cron';

/** How far a schedule's windows are looked for either side of now: far enough for a weekly one. */
export const CADENCE_LOOKBACK_MS = 8 * 86_400_000;

/** Where a schedule stands at a moment: the window it last fired for, and how often it fires. */
export interface Cadence {
  /** The latest time at or before now the schedule fired for; null if none within the lookback. */
  lastWindow: Date | null;
  /** From that window to the next one: the gap the schedule leaves between runs around now. */
  periodMs: number | null;
}

/**
 * The nearest whole second a cron expression matches, at or before `now` (`back`) or after it
 * (`ahead`), within `withinMs`; null when there is none, or the expression cannot be
 * read. Minute by minute, trying only the seconds the expression names (second 0 for a 5-field
 * one), so a daily schedule costs at most about 1,400 checks.
 */
export function nearestRun(
  expression: string,
  timezone: string | undefined,
  now: number,
  direction: 'back' | 'ahead',
  withinMs = CADENCE_LOOKBACK_MS,
): Date | null {
  let task: ReturnType<typeof cron.createTask> | undefined;
  try {
    task = cron.createTask(expression, () => undefined, timezone ? { timezone } : {});
    const step = direction === 'back' ? -60_000 : 60_000;
    const seconds = [...cron.parse(expression).second].sort((a, b) => (a - b) * Math.sign(step));
    const fits = (at: number) => (direction === 'back' ? at <= now : at > now);
    const first = Math.floor(now / 60_000) * 60_000;
    for (let minute = first; Math.abs(minute - first) <= withinMs; minute += step) {
      for (const second of seconds) {
        const candidate = minute + second * 1000;
        if (fits(candidate) && task.match(new Date(candidate))) return new Date(candidate);
      }
    }
    return null;
  } catch {
    return null;
  } finally {
    void Promise.resolve(task?.destroy()).catch(() => undefined);
  }
}

/** The nearest window of any of the expressions: each looks no further than the nearest found so far. */
function nearestOfAll(
  expressions: string[],
  timezone: string | undefined,
  now: number,
  direction: 'back' | 'ahead',
): Date | null {
  let nearest: Date | null = null;
  for (const expression of expressions) {
    const withinMs = nearest ? Math.abs(nearest.getTime() - now) : CADENCE_LOOKBACK_MS;
    const found = nearestRun(expression, timezone, now, direction, withinMs);
    if (found && (!nearest || Math.abs(found.getTime() - now) < Math.abs(nearest.getTime() - now))) {
      nearest = found;
    }
  }
  return nearest;
}

/**
 * The cadence of one or more expressions run as one schedule (the object syncs run on the weekday
 * and the weekend expression alike, jobs/schedules.ts): the latest window of any of them, and the
 * gap from it to the soonest next one. On the defaults a worker started on a Friday evening sees
 * every 2 h, on a Saturday every 12 h.
 */
export function cadenceOf(expressions: string[], timezone: string | undefined, now: number): Cadence {
  const lastWindow = nearestOfAll(expressions, timezone, now, 'back');
  const next = nearestOfAll(expressions, timezone, now, 'ahead');
  const periodMs = lastWindow && next ? next.getTime() - lastWindow.getTime() : null;
  return { lastWindow, periodMs };
}
