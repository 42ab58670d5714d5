import { describe, expect, it } from 'vitest';
import { type Arrival, arrivalStats, lastWindow, perWindow } from '../../../bench/lib/arrivals.ts';
import type { BulkSyncResult } from '../../../bench/lib/bulk-sync.ts';
import { areaOf, summarizeProfile } from '../../../bench/lib/cpu-profile.ts';
import { statementLabel } from '../../../bench/lib/instrument.ts';
import { minimumChartCalls } from '../../../bench/lib/large-chart.ts';
import { type Mark, pressOutcome } from '../../../bench/lib/marks.ts';
import { type ProgressLine, ratePerTenth, rssAtProgress } from '../../../bench/lib/worker-run.ts';
import { describeYardstick, hostYardstick } from '../../../bench/scenarios/explain.ts';
import { thin } from '../../../bench/scenarios/s5-memory.ts';

const arrival = (seq: number, at: number, status = 200, route = '/transactions'): Arrival => ({
  seq,
  at,
  method: 'GET',
  route,
  status,
});

describe('arrival statistics', () => {
  it('counts requests, 429s, routes and the densest window of admitted arrivals', () => {
    const stats = arrivalStats(
      [
        arrival(0, 0),
        arrival(1, 100),
        arrival(2, 900, 429),
        arrival(3, 950),
        arrival(4, 2000, 200, '/token'),
      ],
      1000,
    );
    expect(stats.requests).toBe(5);
    expect(stats.rateLimited).toBe(1);
    expect(stats.byRoute).toEqual({ 'GET /transactions': 4, 'GET /token': 1 });
    expect(stats.maxInWindow).toBe(3);
    expect([stats.firstAt, stats.lastAt]).toEqual([0, 2000]);
  });
});

describe('admitted requests per window', () => {
  it('counts non-429 arrivals in consecutive windows from the first', () => {
    const rows = [
      arrival(0, 5000),
      arrival(1, 5900),
      arrival(2, 6100, 429),
      arrival(3, 7200),
      arrival(4, 8100),
    ];
    expect(perWindow(rows, 1000)).toEqual([2, 0, 1, 1]);
    expect(perWindow([], 1000)).toEqual([]);
  });

  it('the last window from the first arrival: its admitted requests and when the first of them came', () => {
    const rows = [
      arrival(1, 100),
      arrival(2, 900),
      arrival(3, 1300, 429),
      arrival(4, 2150),
      arrival(5, 2900),
    ];
    expect(lastWindow(rows, 1000)).toEqual({ requests: 2, firstAt: 2150 });
    // A 429 is not admitted: it neither opens nor fills a window.
    expect(lastWindow([arrival(1, 100), arrival(2, 1500, 429)], 1000)).toEqual({ requests: 1, firstAt: 100 });
    expect(lastWindow([], 1000)).toBeNull();
  });
});

describe('statement labels', () => {
  it('are the first words, parameters as ?', () => {
    expect(statementLabel(['select count(*) from sync_ledger\n  where id = ', ''])).toBe(
      'select count(*) from sync_ledger where id = ?',
    );
    expect(statementLabel(['x'.repeat(80)], 10)).toBe(`${'x'.repeat(10)}…`);
  });
});

describe('sync-button press outcome', () => {
  const mark = (object_id: string, at: number, result: Mark['result'] = 'SYNCED'): Mark => ({
    seq: at,
    at,
    object_type: 'reimbursement',
    object_id,
    sync_type: 'REIMBURSEMENT_SYNC',
    result,
    sync_request_id: null,
  });

  it('runs from the webhook arrival to the last row resolved, whichever run posted it', () => {
    const outcome = pressOutcome({ syncRequestId: 'r1', objectIds: ['a', 'b'] }, 1000, [
      mark('a', 1500),
      mark('x', 1600),
      mark('b', 2500, 'FAILED'),
    ]);
    expect(outcome).toMatchObject({ arrivedAt: 1000, lastResultAt: 2500, resolved: 2, rows: 2 });
    expect(outcome.rowLatencies).toEqual([500, 1500]);
  });

  it('has no end while a row is unresolved (expired or rejected rows do not count)', () => {
    const outcome = pressOutcome({ syncRequestId: 'r1', objectIds: ['a', 'b'] }, 1000, [
      mark('a', 1500),
      mark('b', 2000, 'EXPIRED'),
    ]);
    expect(outcome.lastResultAt).toBeNull();
    expect(outcome.resolved).toBe(1);
  });
});

describe('progress analysis', () => {
  const progress: ProgressLine[] = [10, 20, 50, 90, 100].map((read, i) => ({
    bench: 'progress',
    t: 1000 + (i + 1) * 1000,
    read,
    posted: read,
    failed: 0,
    reported: 0,
  }));

  it('picks the RSS sample nearest the moment a fraction was read', () => {
    const rss = [
      { at: 1900, rssMB: 100 },
      { at: 4100, rssMB: 150 },
      { at: 5000, rssMB: 160 },
    ];
    expect(rssAtProgress(rss, progress, 100, 0.1)).toBe(100);
    expect(rssAtProgress(rss, progress, 100, 0.5)).toBe(150);
    expect(rssAtProgress(rss, progress, 1000, 0.5)).toBeNull();
  });

  it('gives objects per second for each tenth of the run', () => {
    const rates = ratePerTenth(progress, 100, 1000);
    expect(rates.slice(0, 3)).toEqual([10, 10, 30]);
    expect(rates).toHaveLength(10);
  });

  it('thins a timeline evenly, keeping both ends', () => {
    expect(thin([1, 2, 3], 5)).toEqual([1, 2, 3]);
    expect(thin([0, 1, 2, 3, 4, 5, 6, 7, 8, 9], 4)).toEqual([0, 3, 6, 9]);
  });
});

describe('CPU profile summary', () => {
  it('sums self time by area and by function', () => {
    const summary = summarizeProfile({
      nodes: [
        { id: 1, callFrame: { functionName: '(idle)', url: '', lineNumber: -1 } },
        {
          id: 2,
          callFrame: {
            functionName: 'applyPage',
            url: 'file:///r/src/sync/objects/apply-page.ts',
            lineNumber: 9,
          },
        },
        {
          id: 3,
          callFrame: { functionName: 'parse', url: 'file:///r/node_modules/zod/v4/core.js', lineNumber: 0 },
        },
      ],
      samples: [1, 2, 2, 3],
      timeDeltas: [1000, 2000, 3000, 500],
    });
    expect(summary.totalMs).toBe(6.5);
    expect(summary.areas).toEqual({ 'src/sync': 5, '(idle)': 1, 'node_modules/zod': 0.5 });
    expect(summary.top[0]).toEqual({ fn: 'applyPage objects/apply-page.ts:10', ms: 5 });
  });

  it('names areas by folder, package or runtime', () => {
    expect(areaOf('node:internal/streams', 'x')).toBe('node internals');
    expect(areaOf('file:///r/node_modules/@scope/pkg/a.js', 'x')).toBe('node_modules/@scope/pkg');
    expect(areaOf('file:///r/bench/lib/meter.ts', 'x')).toBe('bench/lib');
    expect(areaOf('', '(garbage collector)')).toBe('(garbage collector)');
    expect(areaOf('', 'writeBuffer')).toBe('(native)');
  });
});

describe('chart calls', () => {
  it('counts uploads of 500 and one call per field', () => {
    expect(minimumChartCalls({ accounts: 20_000, vendors: 5_000, options: 10_000 })).toBe(40 + 2 + 20 + 10);
  });
});

describe('the host yardstick of a run', () => {
  const run = (stubCpuSeconds: number | null, requests: number, objectsPerSecond: number) =>
    ({ stubCpuSeconds, objectsPerSecond, arrivals: { requests } }) as unknown as BulkSyncResult;

  it("scales the pipeline's rate by the stub's CPU per request, and names the host speed the target needs", () => {
    // 16 s of stub CPU over 2,000 requests: 8 ms a request; 2,500/s there is 20,000 in host units.
    const y = hostYardstick(run(16, 2000, 2500), 4000);
    expect(y).toEqual({ stubCpuMsPerRequest: 8, rateTimesStubMs: 20_000, neededMs: 5 });
    expect(describeYardstick(y!, 4000)).toContain('at most 5 ms');
  });

  it('two runs of one pipeline on hosts of different speed give the same cost', () => {
    const slow = hostYardstick(run(16, 2000, 2500), 4000)!;
    const fast = hostYardstick(run(10, 2000, 4000), 4000)!;
    expect(fast.rateTimesStubMs).toBe(slow.rateTimesStubMs);
  });

  it("is absent when the stub's CPU was not read or no request arrived", () => {
    expect(hostYardstick(run(null, 2000, 2500), 4000)).toBeNull();
    expect(hostYardstick(run(5, 0, 0), 4000)).toBeNull();
  });
});
