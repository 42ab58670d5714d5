import cron from 'node-cron';
import { describe, expect, it } from 'vitest';
import {
  coalesceId,
  compactIso,
  scheduledJobId,
  syncButtonJobId,
  watchdogJobId,
  windowStart,
} from '../../../src/queue/job-ids.ts';

function matcher(expression: string): { matches: (d: Date) => boolean; done: () => void } {
  const task = cron.createTask(expression, () => undefined);
  return { matches: (d) => task.match(d), done: () => void task.destroy() };
}

describe('job ids', () => {
  it('scheduled ids name connection, kind and window, with no ":" (BullMQ refuses it in custom ids)', () => {
    const id = scheduledJobId('conn:1', 'transactions', new Date('2025-01-06T10:00:00.000Z'));
    expect(id).toBe('sync|conn_1|transactions|20250106T100000Z');
    expect(id).not.toContain(':');
    expect(compactIso(new Date('2025-12-31T23:59:58.123Z'))).toBe('20251231T235958Z');
  });

  it('coalescing, button and watchdog ids are derived from business ids, never random', () => {
    expect(coalesceId('c1', 'bills')).toBe(coalesceId('c1', 'bills'));
    expect(coalesceId('c1', 'bills')).not.toBe(coalesceId('c1', 'transactions'));
    expect(syncButtonJobId('req-1')).toBe('button|req-1');
    expect(watchdogJobId('req-1')).toBe('watchdog|req-1');
  });
});

describe('windowStart (docs/platform.md G10: polling cadence windows)', () => {
  it('replica ticks a few milliseconds apart name the same window', () => {
    const { matches, done } = matcher('*/2 * * * * *');
    const a = windowStart(new Date('2025-01-06T10:00:04.003Z'), matches);
    const b = windowStart(new Date('2025-01-06T10:00:04.950Z'), matches);
    const late = windowStart(new Date('2025-01-06T10:00:05.400Z'), matches);
    done();
    expect(a.toISOString()).toBe('2025-01-06T10:00:04.000Z');
    expect(b).toEqual(a);
    // A tick delayed past the next second by a busy event loop still names its own window.
    expect(late).toEqual(a);
  });

  it('a 5-field expression (weekday every 2 hours) names the whole minute it matched', () => {
    const { matches, done } = matcher('0 */2 * * 1-5');
    const start = windowStart(new Date(2025, 0, 6, 10, 0, 0, 40), matches);
    done();
    expect(start).toEqual(new Date(2025, 0, 6, 10, 0, 0, 0));
  });
});
