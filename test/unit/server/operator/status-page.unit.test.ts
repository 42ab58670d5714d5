import { describe, expect, it } from 'vitest';
import type { Health, KindStatus, StatusHistory, StatusReport } from '../../../../src/operations/index.ts';
import { renderStatusPage, when } from '../../../../src/server/operator/status-page.ts';

const kind = (name: KindStatus['kind'], ua = 0): KindStatus => ({
  kind: name,
  synced: 10,
  rejected: 1,
  failed: { user_actionable: ua, transient: 2, needs_integrator: 0 },
  topReasons: ua ? [{ category: 'user_actionable', message: 'Action needed: <no GL> …', count: ua }] : [],
  pendingInOutbox: 3,
  lastRun: {
    startedAt: '2025-03-04T10:00:00.000Z',
    finishedAt: null,
    status: 'succeeded',
    outcome: 'succeeded',
    trigger: 'cron',
  },
});

const HEALTHY: Health = {
  state: 'ok',
  findings: ['1 worker up (heartbeat 2 s ago); no failed or stalled jobs.'],
  workers: [
    {
      host: 'host-<a>',
      pid: 42,
      version: '0.1.0',
      startedAt: '2025-03-04T09:00:00.000Z',
      beatAt: '2025-03-04T10:59:58.000Z',
      queues: ['object-sync'],
      schedules: null,
      server: true,
      ageSeconds: 2,
      clockSkewSeconds: 0,
    },
  ],
  queues: [{ queue: 'object-sync', waiting: 1, active: 0, delayed: 2, failed: 0, stalled: 0 }],
  redisError: null,
  failedJobs: 0,
  stalledJobs: 0,
  kinds: [
    {
      kind: 'transactions',
      lastGoodRun: { finishedAt: '2025-03-04T10:00:00.000Z', ageSeconds: 3600, trigger: 'cron' },
      nextScheduledRun: { at: '2025-03-04T12:00:00.000Z', inSeconds: 3600 },
    },
    { kind: 'coa', lastGoodRun: null, nextScheduledRun: null },
  ],
};

const NO_HISTORY: StatusHistory = { runs: [], buttonLatency: [], outboxDepth: [], outboxNow: 0 };

const report = (failures: StatusReport['recentFailures']): StatusReport => ({
  generatedAt: '2025-03-04T11:00:00.000Z',
  health: HEALTHY,
  history: NO_HISTORY,
  connectionId: 'conn-<1>',
  kinds: [kind('transactions', failures.length), kind('bills')],
  externalSyncs: 4,
  syncButton: {
    answered: 2,
    open: 0,
    expired: 1,
    p50Ms: 800,
    p99Ms: 2400,
    cutShort: 0,
    lastCutShortAt: null,
  },
  chart: [{ kind: 'gl_account', mirrored: 40, failing: 1 }],
  recentFailures: failures,
});

const context = { now: new Date('2025-03-04T11:00:00Z'), refreshSeconds: 30, signedIn: true };

describe('status page', () => {
  it('lists the failures a bookkeeper must fix first, each message escaped', () => {
    const page = renderStatusPage(
      report([
        {
          kind: 'transactions',
          objectId: 'txn"><script>x()</script>',
          category: 'user_actionable',
          message: 'Action needed: vendor <img src=x onerror=alert(1)> & "Acme"',
          at: '2025-03-04T10:59:00.000Z',
        },
      ]),
      context,
    );
    expect(page.indexOf('Needs a bookkeeper')).toBeLessThan(page.indexOf('<h2>Objects</h2>'));
    expect(page).toContain('Needs a bookkeeper <span class="attention">(1)</span>');
    expect(page).toContain('Action needed: vendor &lt;img src=x onerror=alert(1)&gt; &amp; &quot;Acme&quot;');
    expect(page).toContain('txn&quot;&gt;&lt;script&gt;x()&lt;/script&gt;');
    expect(page).toContain('conn-&lt;1&gt;');
    expect(page).toContain('Action needed: &lt;no GL&gt; …');
    expect(page).not.toMatch(/<img|<script/);
    expect(page).toContain('2025-03-04 10:59:00 UTC');
    expect(page).toContain('<meta http-equiv="refresh" content="30">');
    expect(page).toContain('2 answered, 0 open, 1 expired; latency p50 800 ms, p99 2400 ms');
    expect(page).toContain('<a href="logout">Sign out</a>');
  });

  it('says when nothing waits on a bookkeeper, and how many are not shown', () => {
    const empty = renderStatusPage(report([]), { ...context, signedIn: false, refreshSeconds: 0 });
    expect(empty).toContain('Nothing to fix');
    expect(empty).not.toContain('Sign out');
    expect(empty).not.toContain('http-equiv="refresh"');
    const some = report([
      {
        kind: 'transactions',
        objectId: 'a',
        category: 'user_actionable',
        message: 'Action needed: x',
        at: '',
      },
    ]);
    some.kinds[0]!.failed.user_actionable = 25;
    expect(renderStatusPage(some, context)).toContain(
      '1 of 25, causes first: a bill payment waits on its bill',
    );
  });

  it('shows timestamps in UTC whatever form the database gave them in', () => {
    expect(when('Tue Mar 04 2025 10:00:00 GMT+0000 (Coordinated Universal Time)')).toBe(
      '2025-03-04 10:00:00 UTC',
    );
    expect(when('not a date')).toBe('not a date');
    expect(when(null)).toBe('');
  });
});

describe('status page: health banner, runs, queues and charts', () => {
  it("opens with the banner, then shows each kind's last good and next scheduled run with ISO times and ages", () => {
    const page = renderStatusPage(report([]), context);
    expect(page.indexOf('id="health"')).toBeLessThan(page.indexOf('Needs a bookkeeper'));
    expect(page).toContain('<section id="health" class="banner banner-ok" data-state="ok">');
    expect(page).toContain(
      '<strong>OK:</strong> 1 worker up (heartbeat 2 s ago); no failed or stalled jobs.',
    );
    expect(page).toContain('<code>host-&lt;a&gt;:42</code> jobs, server · heartbeat 2 s ago');
    expect(page).toContain(
      '<time datetime="2025-03-04T10:00:00.000Z">2025-03-04T10:00:00Z</time> <span class="muted">(60 min ago)</span>',
    );
    expect(page).toContain(
      '<time datetime="2025-03-04T12:00:00.000Z">2025-03-04T12:00:00Z</time> <span class="muted">(in 60 min)</span>',
    );
    expect(page).toContain('<td>chart of accounts</td><td><span class="muted">none yet</span></td>');
    expect(page).toContain('not scheduled (no worker runs the schedules)');
    expect(page).toMatch(/<table id="queues">[\s\S]*<td>object-sync<\/td><td class="n">1<\/td>/);
  });

  it('a problem banner lists every finding, worst first; a Redis that cannot be read is said in the queue table', () => {
    const page = renderStatusPage(
      {
        ...report([]),
        health: {
          ...HEALTHY,
          state: 'problem',
          findings: [
            'No worker is running: <nothing> happens.',
            'bills: the last run stopped with an error.',
          ],
          workers: [],
          queues: null,
          redisError: 'connect ECONNREFUSED 127.0.0.1:1',
        },
      },
      context,
    );
    expect(page).toContain('class="banner banner-problem" data-state="problem"');
    expect(page).toContain('<strong>Problem:</strong> No worker is running: &lt;nothing&gt; happens.');
    expect(page).toContain('<li>bills: the last run stopped with an error.</li>');
    expect(page).toContain('Redis could not be read: connect ECONNREFUSED 127.0.0.1:1.');
  });

  it('draws the three charts as inline SVG, each saying so when there is nothing to draw', () => {
    const empty = renderStatusPage(report([]), context);
    for (const id of ['chart-failures', 'chart-button-latency', 'chart-outbox']) {
      expect(empty).toContain(`<svg id="${id}" class="chart" role="img"`);
    }
    expect(empty).toContain('No runs yet');
    expect(empty).toContain('No sync-button presses answered yet');
    const history: StatusHistory = {
      runs: [
        {
          kind: 'transactions',
          trigger: 'cron',
          startedAt: '2025-03-04T08:00:00.000Z',
          status: 'succeeded',
          posted: 90,
          failed: 0,
        },
        {
          kind: 'bills',
          trigger: 'cron',
          startedAt: '2025-03-04T09:00:00.000Z',
          status: 'succeeded',
          posted: 5,
          failed: 7,
        },
        {
          kind: 'bills',
          trigger: 'webhook',
          startedAt: '2025-03-04T10:00:00.000Z',
          status: 'failed',
          posted: 0,
          failed: 0,
        },
      ],
      buttonLatency: [
        { at: '2025-03-04T08:00:00.000Z', ms: 1200 },
        { at: '2025-03-04T09:00:00.000Z', ms: 4800 },
      ],
      outboxDepth: [
        { at: '2025-03-04T10:30:00.000Z', items: 0 },
        { at: '2025-03-04T11:00:00.000Z', items: 250 },
      ],
      outboxNow: 0,
    };
    const page = renderStatusPage({ ...report([]), history }, context);
    expect(page.match(/class="bar-failed"/g)).toHaveLength(1);
    expect(page.match(/class="bar-clean"/g)).toHaveLength(2);
    expect(page).toContain(
      '<title>bills · 2025-03-04 09:00 UTC · cron · succeeded: 5 posted, 7 failed</title>',
    );
    expect(page).toContain('<title>2025-03-04 09:00 UTC: 4.8 s</title>');
    expect(page).toMatch(/<polyline points="[\d., ]+"/);
    expect(page).toContain('<title>2025-03-04 10:30–11:00 UTC: 250 waiting at most</title>');
    expect(page).not.toContain('No runs yet');
    expect(page).not.toMatch(/<script/);
  });

  it('the outbox chart tells a peak of the last 30 minutes from what waits now, on a UTC time axis', () => {
    const history: StatusHistory = {
      ...NO_HISTORY,
      outboxDepth: [
        { at: '2025-03-04T10:30:00.000Z', items: 0 },
        { at: '2025-03-04T11:00:00.000Z', items: 250 },
      ],
      outboxNow: 0,
    };
    const chart = /<svg id="chart-outbox"[\s\S]*?<\/svg>/.exec(
      renderStatusPage({ ...report([]), history }, context),
    )![0];
    expect(chart).toContain('peak per 30 min; 0 waiting now');
    // The dot at the right edge sits on the zero line (y = 12 + 114), not on the 250 peak.
    expect(chart).toContain('<circle class="outbox-now" cx="350" cy="126" r="3"');
    expect(chart).toContain('<title>now (2025-03-04 11:00 UTC): 0 waiting</title>');
    expect(chart).toContain('>10:00 UTC</text>');
    expect(chart).toContain('>now 11:00 UTC: 0</text>');
    expect(chart).not.toContain('24 h ago');
  });
});
