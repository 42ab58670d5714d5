import { describe, expect, it } from 'vitest';
import { finishedJobFields, kindOfJob, resultCounts } from '../../../jobs/finished-job.ts';
import { disabledFeatures } from '../../../src/commands/worker-warnings.ts';
import { hostOf } from '../../../src/infra/index.ts';
import { emptySummary } from '../../../src/sync/objects/index.ts';

describe('the "job finished" line', () => {
  it('an object sync: queue, job, kind, duration and counts, all numbers', () => {
    const summary = {
      ...emptySummary('transactions'),
      read: 120,
      posted: 100,
      failed: 15,
      skipped: 5,
      reported: { batches: 1, items: 115, rejected: 2 },
      durationMs: 900,
    };
    const job = { id: '7', data: { connectionId: 'c', kind: 'transactions', trigger: 'cron' } };
    expect(finishedJobFields('object-sync', job, 950, { outcome: 'synced', summary })).toEqual({
      queue: 'object-sync',
      job: '7',
      kind: 'transactions',
      durationMs: 950,
      outcome: 'synced',
      read: 120,
      posted: 100,
      failed: 15,
      skipped: 5,
      unreadable: 0,
      reported: 115,
      rejected: 2,
    });
  });

  it('a chart mirror, a sync-button press, a watchdog, a busy run and a failed attempt', () => {
    const kind = (created: number, failed: number) => ({
      created,
      updated: 1,
      deactivated: 0,
      reactivated: 0,
      hidden: 2,
      unhidden: 0,
      adopted: 0,
      unchanged: 10,
      failed: Array.from({ length: failed }, () => ({ remoteId: 'x', action: 'create', reason: 'r' })),
    });
    const mirror = {
      outcome: 'mirrored',
      summary: { kinds: { gl_account: kind(3, 1), vendor: kind(2, 0) }, writeCalls: 4 },
    };
    expect(resultCounts(mirror)).toEqual({
      outcome: 'mirrored',
      created: 5,
      updated: 2,
      deactivated: 4,
      reactivated: 0,
      adopted: 0,
      unchanged: 20,
      failed: 1,
      writeCalls: 4,
    });
    expect(kindOfJob('coa-mirror', { connectionId: 'c' })).toBe('coa');
    expect(kindOfJob('sync-button', { objectType: 'REIMBURSEMENT' })).toBe('reimbursements');
    expect(kindOfJob('object-sync', 'garbage')).toBeUndefined();
    expect(
      resultCounts({ outcome: 'answered', failed: 3, adopted: 1, reported: { items: 4, rejected: 0 } }),
    ).toEqual({
      outcome: 'answered',
      failed: 3,
      adopted: 1,
      reported: 4,
    });
    expect(resultCounts({ outcome: 'skipped: already running', kind: 'bills', followUp: false })).toEqual({
      outcome: 'skipped: already running',
    });
    expect(finishedJobFields('object-sync', { id: '9', data: { kind: 'bills' } }, null)).toEqual({
      queue: 'object-sync',
      job: '9',
      kind: 'bills',
    });
  });
});

describe('settings that silently turn a feature off', () => {
  const all = { server: true, schedules: true, workers: true };

  it('no WEBHOOK_PUBLIC_URL and no WEBHOOK_SECRET: no webhooks, so no sync button', () => {
    const [warning, ...rest] = disabledFeatures({}, all);
    expect(rest).toEqual([]);
    expect(warning).toMatchObject({ feature: 'webhooks', setting: 'WEBHOOK_PUBLIC_URL' });
    expect(warning!.message).toMatch(/sync button and webhook-triggered syncs cannot work/);
    // Without the server this process receives no webhook anyway: nothing silent about it.
    expect(disabledFeatures({}, { ...all, server: false })).toEqual([]);
  });

  it('WEBHOOK_PUBLIC_URL that is never registered (WEBHOOK_SECRET set, or --no-server)', () => {
    const url = 'https://worker.example.com/webhooks';
    const [secret] = disabledFeatures({ WEBHOOK_PUBLIC_URL: url, WEBHOOK_SECRET: 'whsec_x' }, all);
    expect(secret!.message).toMatch(/^WEBHOOK_PUBLIC_URL is not registered: WEBHOOK_SECRET is set/);
    const [serverless] = disabledFeatures({ WEBHOOK_PUBLIC_URL: url }, { ...all, server: false });
    expect(serverless!.message).toMatch(/--no-server/);
    expect(disabledFeatures({ WEBHOOK_PUBLIC_URL: url }, all)).toEqual([]);
    expect(disabledFeatures({ WEBHOOK_SECRET: 'whsec_x' }, all)).toEqual([]);
  });
});

describe('the platform host named in an unreachable-platform line', () => {
  it('host and port, the scheme default when none is given, never credentials', () => {
    expect(hostOf('http://127.0.0.1:1/developer/v1')).toBe('127.0.0.1:1');
    expect(hostOf('https://user:pw@api.example.com/developer/v1')).toBe('api.example.com:443');
    expect(hostOf('http://[::1]/x')).toBe('[::1]:80');
    expect(hostOf('nonsense')).toBe('PLATFORM_BASE_URL');
  });
});
