import { describe, expect, it } from 'vitest';
import { renderStatusPage, when } from '../../../src/server/status-page.ts';
import type { KindStatus, StatusReport } from '../../../src/sync/status/status-report.ts';

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

const report = (failures: StatusReport['recentFailures']): StatusReport => ({
  connectionId: 'conn-<1>',
  kinds: [kind('transactions', failures.length), kind('bills')],
  externalSyncs: 4,
  syncButton: { answered: 2, open: 0, expired: 1, p50Ms: 800, p99Ms: 2400 },
  chart: [{ kind: 'gl_account', mirrored: 40, failing: 1 }],
  recentFailures: failures,
});

const context = { generatedAt: new Date('2025-03-04T11:00:00Z'), refreshSeconds: 30, signedIn: true };

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
    expect(renderStatusPage(some, context)).toContain('The 1 most recent of 25.');
  });

  it('shows timestamps in UTC whatever form the database gave them in', () => {
    expect(when('Tue Mar 04 2025 10:00:00 GMT+0000 (Coordinated Universal Time)')).toBe(
      '2025-03-04 10:00:00 UTC',
    );
    expect(when('not a date')).toBe('not a date');
    expect(when(null)).toBe('');
  });
});
