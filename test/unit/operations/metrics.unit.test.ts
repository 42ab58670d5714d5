import { describe, expect, it } from 'vitest';
import { summaryOf } from '../../../src/operations/job-metrics.ts';
import { createMetrics } from '../../../src/operations/metrics.ts';
import { emptySummary } from '../../../src/sync/objects/index.ts';

const line = (text: string, series: string) =>
  text
    .split('\n')
    .find((l) => l.startsWith(`${series} `))
    ?.slice(series.length + 1);

describe('metrics registry', () => {
  it('platform attempts: requests by method, route and status; 429s; durations; permit waits', async () => {
    const metrics = createMetrics({ processMetrics: false });
    metrics.observePlatform({
      method: 'GET',
      path: '/transactions/t-1',
      status: 200,
      durationMs: 120,
      waitMs: 0,
    });
    metrics.observePlatform({
      method: 'GET',
      path: '/transactions/t-2',
      status: 429,
      durationMs: 10,
      waitMs: 2500,
    });
    metrics.observePlatform({
      method: 'POST',
      path: '/accounting/syncs',
      status: null,
      durationMs: 65000,
      waitMs: 1,
    });
    const { body, contentType } = await metrics.render();
    expect(contentType).toContain('text/plain');
    expect(
      line(body, 'ledgersync_platform_requests_total{method="GET",route="/transactions/:id",status="200"}'),
    ).toBe('1');
    expect(
      line(body, 'ledgersync_platform_requests_total{method="GET",route="/transactions/:id",status="429"}'),
    ).toBe('1');
    expect(
      line(
        body,
        'ledgersync_platform_requests_total{method="POST",route="/accounting/syncs",status="network_error"}',
      ),
    ).toBe('1');
    expect(line(body, 'ledgersync_platform_rate_limited_total')).toBe('1');
    expect(line(body, 'ledgersync_platform_limiter_wait_seconds_count')).toBe('3');
    expect(line(body, 'ledgersync_platform_limiter_wait_seconds_bucket{le="2.5"}')).toBe('3');
    expect(line(body, 'ledgersync_platform_limiter_wait_seconds_bucket{le="1"}')).toBe('2');
    expect(
      line(body, 'ledgersync_platform_request_duration_seconds_sum{method="GET",route="/transactions/:id"}'),
    ).toBe('0.13');
    expect(body).not.toContain('process_cpu');
  });

  it('job attempts: durations by queue and outcome; object counts from the sync summary', async () => {
    const metrics = createMetrics({ processMetrics: false });
    const summary = {
      ...emptySummary('bills'),
      posted: 7,
      failed: 2,
      skipped: 1,
      reported: { batches: 1, items: 9, rejected: 1 },
    };
    metrics.observeJob({
      queue: 'objectSync',
      status: 'completed',
      durationMs: 1500,
      result: { outcome: 'synced', summary },
    });
    metrics.observeJob({ queue: 'syncButton', status: 'failed', durationMs: 200 });
    metrics.observeJob({
      queue: 'objectSync',
      status: 'completed',
      durationMs: 5,
      result: { outcome: 'skipped: already running' },
    });
    const { body } = await metrics.render();
    expect(line(body, 'ledgersync_job_duration_seconds_count{queue="object-sync",status="completed"}')).toBe(
      '2',
    );
    expect(line(body, 'ledgersync_job_duration_seconds_count{queue="sync-button",status="failed"}')).toBe(
      '1',
    );
    expect(line(body, 'ledgersync_objects_total{kind="bills",outcome="synced"}')).toBe('7');
    expect(line(body, 'ledgersync_objects_total{kind="bills",outcome="failed"}')).toBe('2');
    expect(line(body, 'ledgersync_results_reported_total{kind="bills",answer="accepted"}')).toBe('8');
    expect(line(body, 'ledgersync_results_reported_total{kind="bills",answer="rejected"}')).toBe('1');
  });

  it('summaryOf takes only a summary that ran', () => {
    expect(summaryOf({ outcome: 'answered', summary: emptySummary('transactions') })?.kind).toBe(
      'transactions',
    );
    expect(summaryOf({ outcome: 'synced', summary: { ...emptySummary('bills'), busy: true } })).toBeNull();
    expect(summaryOf({ outcome: 'synced', summary: { kind: 'nope', posted: 1, failed: 0 } })).toBeNull();
    expect(summaryOf({ outcome: 'expired' })).toBeNull();
    expect(summaryOf(null)).toBeNull();
  });

  it('registries are per instance: two do not share series', async () => {
    const a = createMetrics({ processMetrics: false });
    const b = createMetrics({ processMetrics: false });
    a.observePlatform({ method: 'GET', path: '/token', status: 200, durationMs: 1, waitMs: 0 });
    expect((await b.render()).body).not.toContain('route="/token"');
  });
});
