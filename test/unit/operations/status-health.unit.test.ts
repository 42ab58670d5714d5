import cron from 'node-cron';
import { describe, expect, it } from 'vitest';
import { ageOf, clockOf, formatHealth, untilOf } from '../../../src/operations/format-status.ts';
import {
  CLOCK_SKEW_WARN_SECONDS,
  type JudgeInput,
  judgeHealth,
  type WorkerSeen,
} from '../../../src/operations/health.ts';
import { nextRun, nextScheduledRuns } from '../../../src/operations/next-runs.ts';
import { spanOf } from '../../../src/operations/span.ts';
import { niceMax } from '../../../src/server/index.ts';

const worker = (over: Partial<WorkerSeen> = {}): WorkerSeen => ({
  host: 'h',
  pid: 1,
  version: '0.1.0',
  startedAt: '2025-03-04T09:00:00.000Z',
  beatAt: '2025-03-04T10:59:58.000Z',
  queues: ['object-sync', 'sync-button'],
  schedules: {
    objectSyncWeekdays: '0 */2 * * 1-5',
    objectSyncWeekends: '0 */12 * * 0,6',
    coaMirror: '30 1 * * *',
    timezone: 'UTC',
  },
  server: true,
  ageSeconds: 2,
  clockSkewSeconds: 0,
  ...over,
});

const queue = (over: Partial<{ failed: number; stalled: number }> = {}) => ({
  queue: 'object-sync',
  waiting: 0,
  active: 0,
  delayed: 0,
  failed: 0,
  stalled: 0,
  ...over,
});

const input = (over: Partial<JudgeInput> = {}): JudgeInput => ({
  workers: [worker()],
  queues: [queue()],
  redisError: null,
  latest: [{ kind: 'transactions', lastRun: { status: 'succeeded', outcome: 'succeeded' } }],
  ...over,
});

describe('the health banner', () => {
  it('is OK with a worker taking jobs and nothing failed or stalled', () => {
    expect(judgeHealth(input())).toEqual({
      state: 'ok',
      findings: ['1 worker up (heartbeat 2 s ago); no failed or stalled jobs.'],
    });
  });

  it('is a problem without a worker, or with a worker that takes no jobs', () => {
    const none = judgeHealth(input({ workers: [] }));
    expect(none.state).toBe('problem');
    expect(none.findings[0]).toMatch(/^No worker is running/);
    const idle = judgeHealth(input({ workers: [worker({ queues: [] })] }));
    expect(idle.state).toBe('problem');
    expect(idle.findings[0]).toMatch(/^No worker takes jobs/);
  });

  it('is a problem with stalled jobs, and when Redis cannot be read', () => {
    const stalled = judgeHealth(input({ queues: [queue({ stalled: 2 })] }));
    expect(stalled).toEqual({
      state: 'problem',
      findings: ['2 stalled jobs: the worker running them stopped; a running worker takes them up again.'],
    });
    const unread = judgeHealth(input({ workers: [], queues: null, redisError: 'connect ECONNREFUSED' }));
    expect(unread.state).toBe('problem');
    expect(unread.findings).toEqual([
      'Redis could not be read (connect ECONNREFUSED): whether a worker runs is unknown.',
    ]);
  });

  it('needs a look for failed jobs, schedules nobody runs and a kind whose last run failed, problems first', () => {
    const judged = judgeHealth(
      input({
        workers: [worker({ schedules: null })],
        queues: [queue({ failed: 1 })],
        latest: [
          {
            kind: 'transactions',
            lastRun: { status: 'succeeded', outcome: 'failed: all 14 objects failed' },
          },
          { kind: 'bills', lastRun: { status: 'failed', outcome: 'failed' } },
          { kind: 'transfers', lastRun: { status: 'succeeded', outcome: 'completed with 2 failed' } },
          { kind: 'cashbacks', lastRun: null },
        ],
      }),
    );
    expect(judged).toEqual({
      state: 'attention',
      findings: [
        'No worker runs the schedules (--no-schedules): syncs run only when triggered.',
        '1 failed job kept for a week: see the queue dashboard.',
        'transactions: all 14 objects of the last run failed.',
        "bills: the last run stopped with an error (see the worker's log).",
      ],
    });
    const both = judgeHealth(
      input({ workers: [], latest: [{ kind: 'bills', lastRun: { status: 'failed', outcome: 'failed' } }] }),
    );
    expect(both.state).toBe('problem');
    expect(both.findings).toHaveLength(2);
    expect(both.findings[0]).toMatch(/^No worker is running/);
  });
});

describe('worker clocks', () => {
  const skewed = (clockSkewSeconds: number | null) =>
    worker({ host: 'worker-b', pid: 7, beatAt: '2025-03-04T10:58:28.000Z', clockSkewSeconds });

  it('a worker clock 90 s behind Redis is a finding that names the worker and says what to fix', () => {
    const judged = judgeHealth(input({ workers: [worker(), skewed(-90)] }));
    expect(judged).toEqual({
      state: 'attention',
      findings: [
        "Worker worker-b:7's clock is 90 s behind Redis's: sync-button deadlines use the database's clock, but fix the time sync (NTP) on that host: its delayed jobs and log times follow its own clock.",
      ],
    });
    expect(judgeHealth(input({ workers: [skewed(720)] })).findings[0]).toMatch(
      /^Worker worker-b:7's clock is 12 min ahead of Redis's: /,
    );
  });

  it(`a clock within ${CLOCK_SKEW_WARN_SECONDS} s, or not known (a beat from an older version), is no finding`, () => {
    for (const skew of [CLOCK_SKEW_WARN_SECONDS, -CLOCK_SKEW_WARN_SECONDS, 0, null]) {
      expect(judgeHealth(input({ workers: [worker(), skewed(skew)] }))).toEqual({
        state: 'ok',
        findings: ['2 workers up (heartbeat 2 s ago); no failed or stalled jobs.'],
      });
    }
  });

  it("each worker's line says how far its clock is from Redis's; the heartbeat age is Redis's", () => {
    const health = {
      ...judgeHealth(input({ workers: [worker(), skewed(-90)] })),
      workers: [worker(), skewed(-90)],
      queues: [queue()],
      redisError: null,
      failedJobs: 0,
      stalledJobs: 0,
      kinds: [],
    };
    const text = formatHealth(health, Date.parse('2025-03-04T11:00:00Z'));
    expect(text).toContain(
      'worker h:1 (jobs, schedules, server), heartbeat 2 s ago, clock in step, up since',
    );
    // Its own beatAt is 92 s before the reader's clock; Redis heard it 2 s ago.
    expect(text).toContain(
      'worker worker-b:7 (jobs, schedules, server), heartbeat 2 s ago, clock 90 s behind Redis, up since',
    );
    expect(clockOf(skewed(null))).toBeNull();
  });
});

describe('next scheduled runs (jobs/schedules.ts expressions)', () => {
  it('each kind runs next when its expression next fires: object kinds on the sooner of weekdays and weekends', () => {
    const schedules = worker().schedules!;
    const runs = nextScheduledRuns(schedules);
    expect([...runs.keys()]).toEqual([
      'transactions',
      'reimbursements',
      'transfers',
      'cashbacks',
      'bills',
      'coa',
    ]);
    const objects = runs.get('transactions')!;
    const check = (expression: string, at: Date) => {
      const task = cron.createTask(expression, () => undefined, { timezone: 'UTC' });
      try {
        return task.match(at);
      } finally {
        void task.destroy();
      }
    };
    expect(check(schedules.objectSyncWeekdays, objects) || check(schedules.objectSyncWeekends, objects)).toBe(
      true,
    );
    const weekdays = nextRun(schedules.objectSyncWeekdays, 'UTC')!;
    const weekends = nextRun(schedules.objectSyncWeekends, 'UTC')!;
    expect(objects.getTime()).toBe(Math.min(weekdays.getTime(), weekends.getTime()));
    expect(check(schedules.coaMirror, runs.get('coa')!)).toBe(true);
    expect(runs.get('bills')).toEqual(objects);
  });

  it('an expression that cannot be read has no next run', () => {
    expect(nextRun('not cron')).toBeNull();
  });
});

describe('times at a glance', () => {
  it('spans, ages and countdowns', () => {
    const now = Date.parse('2025-03-04T11:00:00Z');
    expect(spanOf(42)).toBe('42 s');
    expect(spanOf(7 * 60)).toBe('7 min');
    expect(spanOf(5 * 3600)).toBe('5 h');
    expect(spanOf(3 * 86_400)).toBe('3 d');
    expect(ageOf('2025-03-04T10:53:00Z', now)).toBe('7 min');
    expect(untilOf('2025-03-04T12:00:00Z', now)).toBe('in 60 min');
    expect(untilOf('2025-03-04T10:00:00Z', now)).toBe('now');
  });

  it('chart axes end on a round number', () => {
    expect([0, 1, 3, 7, 10, 11, 240, 4800].map(niceMax)).toEqual([1, 1, 5, 10, 10, 20, 500, 5000]);
  });
});
