import type { TokenRekey } from '../platform/index.ts';
import { type Health, skewWords, type WorkerSeen } from './health.ts';
import { spanOf } from './span.ts';
import type { StatusReport } from './status-report.ts';

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

/** How long ago `iso` was: "42 s", "7 min", "3 h", "2 d". */
export function ageOf(iso: string, now = Date.now()): string {
  return spanOf((now - Date.parse(iso)) / 1000);
}

/** How long until `iso`: "in 53 min" (or "now" once it is due). */
export function untilOf(iso: string, now = Date.now()): string {
  const seconds = (Date.parse(iso) - now) / 1000;
  return seconds <= 0 ? 'now' : `in ${spanOf(seconds)}`;
}

const STATE_WORD: Record<Health['state'], string> = {
  ok: 'OK',
  attention: 'NEEDS A LOOK',
  problem: 'PROBLEM',
};

/**
 * A worker's clock against Redis's: "clock in step", or "clock 90 s behind Redis" (a beat from an
 * older version carries no stamp: nothing is said).
 */
export function clockOf(worker: WorkerSeen): string | null {
  const skew = worker.clockSkewSeconds;
  if (skew === null || skew === undefined) return null;
  return Math.abs(skew) < 1 ? 'clock in step' : `clock ${skewWords(skew)} Redis`;
}

/** The health banner, the workers, each kind's last good and next scheduled run, the queues. */
export function formatHealth(health: Health, now = Date.now()): string {
  const [headline, ...rest] = health.findings;
  const lines = [`Health: ${STATE_WORD[health.state]}: ${headline ?? ''}`, ...rest.map((f) => `  ${f}`)];
  for (const w of health.workers) {
    const parts = [w.queues.length ? 'jobs' : '', w.schedules ? 'schedules' : '', w.server ? 'server' : '']
      .filter(Boolean)
      .join(', ');
    // The heartbeat's age is Redis's (health.ts): the worker's own beatAt follows its clock.
    const clock = clockOf(w);
    lines.push(
      `  worker ${w.host}:${w.pid} (${parts || 'nothing'}), heartbeat ${spanOf(w.ageSeconds)} ago${clock ? `, ${clock}` : ''}, up since ${w.startedAt}`,
    );
  }
  const timing = table(
    ['kind', 'last good run', 'next scheduled run'],
    health.kinds.map((k) => [
      k.kind,
      k.lastGoodRun
        ? `${k.lastGoodRun.finishedAt} (${ageOf(k.lastGoodRun.finishedAt, now)} ago, ${k.lastGoodRun.trigger})`
        : 'none yet',
      k.nextScheduledRun
        ? `${k.nextScheduledRun.at} (${untilOf(k.nextScheduledRun.at, now)})`
        : 'not scheduled (no worker runs the schedules)',
    ]),
  );
  const queues = health.queues
    ? table(
        ['queue', 'waiting', 'active', 'delayed', 'failed', 'stalled'],
        health.queues.map((q) =>
          [q.queue, q.waiting, q.active, q.delayed, q.failed, q.stalled].map((v) => String(v)),
        ),
      )
    : `Queues: Redis could not be read (${health.redisError ?? 'unknown error'}).`;
  return [...lines, '', timing, '', queues].join('\n');
}

/**
 * Where a TOKEN_ENCRYPTION_KEY rotation stands (README, rotating it): when the old keys may go, or
 * how many stored values still need one. Nothing while no old key is set and none is needed.
 */
export function tokenEncryptionLine(t: TokenRekey): string | null {
  const now = t.reencrypted ? ` (${t.reencrypted} re-encrypted just now)` : '';
  if (t.needOldKey > 0) {
    return (
      `Token encryption: ${t.needOldKey} stored value${t.needOldKey === 1 ? '' : 's'} still under another key than TOKEN_ENCRYPTION_KEY${now} ` +
      '(written meanwhile by a process with another TOKEN_ENCRYPTION_KEY); each worker start and `ledgersync status` re-encrypt them: keep TOKEN_ENCRYPTION_OLD_KEYS until then.'
    );
  }
  if (!t.oldKeys) return null;
  return `Token encryption: every stored token is under TOKEN_ENCRYPTION_KEY${now}; TOKEN_ENCRYPTION_OLD_KEYS may be removed once every process runs with this TOKEN_ENCRYPTION_KEY.`;
}

/** The status report as text for a terminal. */
export function formatStatus(report: StatusReport): string {
  const kinds = table(
    ['kind', 'synced', 'rejected', 'action needed', 'temporary', 'integrator', 'in outbox', 'last run'],
    report.kinds.map((k) => [
      k.kind,
      String(k.synced),
      String(k.rejected),
      String(k.failed.user_actionable),
      String(k.failed.transient),
      String(k.failed.needs_integrator),
      String(k.pendingInOutbox),
      k.lastRun
        ? `${k.lastRun.outcome}, ${k.lastRun.startedAt} (${ageOf(k.lastRun.startedAt)} ago, ${k.lastRun.trigger})`
        : 'never',
    ]),
  );
  const reasons = report.kinds.flatMap((k) =>
    k.topReasons.map((r) => `  ${k.kind}: ${r.count} × ${r.message}`),
  );
  const b = report.syncButton;
  const parts = [
    `${report.connectionId ? `Connection ${report.connectionId}` : 'No connection recorded yet'} · ${report.generatedAt}`,
    '',
    formatHealth(report.health, Date.parse(report.generatedAt)),
    '',
    kinds,
    '',
    reasons.length ? `Top failure reasons:\n${reasons.join('\n')}` : 'No failures reported.',
    '',
    `Sync button: ${b.answered} answered, ${b.open} open, ${b.expired} expired` +
      (b.p50Ms !== null ? `; latency p50 ${b.p50Ms} ms, p99 ${b.p99Ms} ms` : '') +
      (b.cutShort > 0 ? cutShortWords(b.cutShort, b.lastCutShortAt) : ''),
    `Chart of accounts: ${report.chart.map((c) => `${c.mirrored} ${c.kind}${c.failing ? ` (${c.failing} failing)` : ''}`).join(', ') || 'not mirrored yet'}`,
    `Synced outside ledgersync, not yet acknowledged (\`ledgersync reconcile\` lists them; \`--ack\` acknowledges): ${report.externalSyncs}`,
  ];
  const tokens = report.tokenEncryption ? tokenEncryptionLine(report.tokenEncryption) : null;
  if (tokens) parts.push(tokens);
  return parts.join('\n');
}

/**
 * Presses the watchdog answered before every requested row could be read (docs/platform.md G29):
 * the platform's reads were too slow for the window, so rows no read reached expired there.
 */
function cutShortWords(count: number, latestAt: string | null): string {
  const presses = count === 1 ? '1 press' : `${count} presses`;
  return (
    `\n  ${presses} cut short (latest pressed ${latestAt ?? 'unknown'}): the platform answered its reads too ` +
    'slowly to list every requested row within 5 minutes; the rows read were answered (a temporary ' +
    'failure where not synced), the rest expired on the platform and the next sync writes them'
  );
}
