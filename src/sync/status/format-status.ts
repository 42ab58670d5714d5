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

/** "42 s", "7 min", "3 h", "2 d": how long ago, at a glance. */
export function ageOf(iso: string, now = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (seconds < 90) return `${seconds} s`;
  if (seconds < 90 * 60) return `${Math.round(seconds / 60)} min`;
  if (seconds < 36 * 3600) return `${Math.round(seconds / 3600)} h`;
  return `${Math.round(seconds / 86_400)} d`;
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
    `Connection ${report.connectionId}`,
    '',
    kinds,
    '',
    reasons.length ? `Top failure reasons:\n${reasons.join('\n')}` : 'No failures reported.',
    '',
    `Sync button: ${b.answered} answered, ${b.open} open, ${b.expired} expired` +
      (b.p50Ms !== null ? `; latency p50 ${b.p50Ms} ms, p99 ${b.p99Ms} ms` : ''),
    `Chart of accounts: ${report.chart.map((c) => `${c.mirrored} ${c.kind}${c.failing ? ` (${c.failing} failing)` : ''}`).join(', ') || 'not mirrored yet'}`,
    `Synced outside ledgersync (run \`ledgersync reconcile\`): ${report.externalSyncs}`,
  ];
  return parts.join('\n');
}
