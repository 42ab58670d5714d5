import { describe, expect, it } from 'vitest';
import { schedulesFromConfig, startSchedules } from '../../../jobs/schedules.ts';
import { loadConfig } from '../../../src/config.ts';
import { silentLogger } from '../../../src/log.ts';
import type { Queues } from '../../../src/queue/index.ts';

interface Added {
  queue: string;
  name: string;
  data: unknown;
  jobId: string | undefined;
}

function fakeQueues(added: Added[]): Queues {
  const queue = (name: string) => ({
    add: async (jobName: string, data: unknown, opts: { jobId?: string } = {}) => {
      added.push({ queue: name, name: jobName, data, jobId: opts.jobId });
      return { id: opts.jobId };
    },
  });
  return {
    objectSync: queue('object-sync'),
    coaMirror: queue('coa-mirror'),
    syncButton: queue('sync-button'),
    syncWatchdog: queue('sync-watchdog'),
  } as unknown as Queues;
}

describe('schedules (docs/platform.md G10: polling cadence)', () => {
  it('defaults: object syncs every 2 hours on weekdays and every 12 hours at weekends, the chart daily', () => {
    expect(schedulesFromConfig(loadConfig({}))).toEqual({
      objectSyncWeekdays: '0 */2 * * 1-5',
      objectSyncWeekends: '0 */12 * * 0,6',
      coaMirror: '30 1 * * *',
    });
  });

  it('cron only enqueues: one job per kind named by the window, and the chart mirror likewise', async () => {
    const added: Added[] = [];
    const schedules = startSchedules({
      settings: {
        objectSyncWeekdays: '* * * * * *',
        objectSyncWeekends: '0 0 1 1 *',
        coaMirror: '* * * * * *',
      },
      queues: fakeQueues(added),
      connectionId: 'conn-1',
      log: silentLogger,
      kinds: ['transactions', 'bills'],
    });
    await new Promise((resolve) => setTimeout(resolve, 1_300));
    await schedules.stop();
    // Every tick adds one job per kind; under load the chart's tick may land in the next second,
    // so the jobs are checked across the ticks seen, each named by its own window.
    expect(added.map((a) => [a.queue, a.jobId?.split('|').slice(0, 3).join('|'), a.data])).toEqual(
      expect.arrayContaining([
        [
          'object-sync',
          'sync|conn-1|transactions',
          { connectionId: 'conn-1', kind: 'transactions', trigger: 'cron' },
        ],
        ['object-sync', 'sync|conn-1|bills', { connectionId: 'conn-1', kind: 'bills', trigger: 'cron' }],
        ['coa-mirror', 'sync|conn-1|coa', { connectionId: 'conn-1', trigger: 'cron' }],
      ]),
    );
    expect(added.every((a) => /\|\d{8}T\d{6}Z$/.test(a.jobId ?? ''))).toBe(true);
  });
});
