import type { KindStatus, StatusReport } from '../../operations/index.ts';
import type { MigrationProgress } from '../../sync/connection-migration/index.ts';
import { html, type SafeHtml } from './html.ts';
import { PAGE_STYLE } from './page-style.ts';
import { healthBanner, queuesTable, scheduleTable, timeWithAge } from './status-banner.ts';
import { statusCharts } from './status-charts.ts';
import { migrationSection } from './status-migration.ts';

export interface StatusPageContext {
  /** The moment the page is rendered: ages are counted from it. */
  now: Date;
  /** Seconds between automatic reloads; 0 for none. */
  refreshSeconds: number;
  /** The latest connection migration, when there is one (src/sync/connection-migration/progress.ts). */
  migration?: MigrationProgress | null;
  /** Whether the browser signed in (a sign-out link is shown). */
  signedIn: boolean;
}

const CATEGORY_LABEL: Record<string, string> = {
  user_actionable: 'action needed',
  transient: 'temporary',
  needs_integrator: 'integrator',
};

/** Timestamps as the database gave them (Date or text), shown in UTC. */
export function when(value: string | null | undefined): string {
  if (!value) return '';
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) return value;
  return `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

function needsAction(report: StatusReport): SafeHtml {
  const total = report.kinds.reduce((n, k) => n + k.failed.user_actionable, 0);
  const failures = report.recentFailures;
  const heading = html`<h2 id="needs-action">Needs a bookkeeper <span class="${total ? 'attention' : 'ok'}">(${total})</span></h2>`;
  if (failures.length === 0) {
    return html`${heading}<p class="muted">Nothing to fix: no object is waiting on a bookkeeper.</p>`;
  }
  const shown =
    failures.length < total
      ? html`<p class="muted">${failures.length} of ${total}, causes first: a bill payment waits on its bill, so bills and other objects come before payments; newest first.</p>`
      : '';
  const rows = failures.map(
    (f) =>
      html`<tr><td>${f.kind}</td><td><code>${f.objectId}</code></td><td class="message">${f.message}</td><td>${when(f.at)}</td></tr>`,
  );
  return html`${heading}${shown}
<table id="failures"><thead><tr><th>Kind</th><th>Object</th><th>What to fix</th><th>When</th></tr></thead>
<tbody>${rows}</tbody></table>`;
}

function lastRun(k: KindStatus, now: Date): SafeHtml | string {
  if (!k.lastRun) return 'never';
  const { outcome } = k.lastRun;
  const failing = outcome.startsWith('failed') || outcome.startsWith('completed with');
  return html`<span class="${failing ? 'attention' : ''}">${outcome}</span> · ${timeWithAge(k.lastRun.startedAt, now)} <span class="muted">${k.lastRun.trigger}</span>`;
}

function kindsTable(report: StatusReport, now: Date): SafeHtml {
  const rows = report.kinds.map(
    (k) => html`<tr><td>${k.kind}</td><td class="n">${k.synced}</td><td class="n">${k.rejected}</td>
<td class="n${k.failed.user_actionable ? ' attention' : ''}">${k.failed.user_actionable}</td>
<td class="n">${k.failed.transient}</td><td class="n">${k.failed.needs_integrator}</td>
<td class="n">${k.pendingInOutbox}</td><td>${lastRun(k, now)}</td></tr>`,
  );
  return html`<h2>Objects</h2>
<table id="kinds"><thead><tr><th>Kind</th><th class="n">Synced</th><th class="n">Rejected</th><th class="n">Action needed</th>
<th class="n">Temporary</th><th class="n">Integrator</th><th class="n">In outbox</th><th>Last run</th></tr></thead>
<tbody>${rows}</tbody></table>`;
}

function reasons(report: StatusReport): SafeHtml {
  const items = report.kinds.flatMap((k) =>
    k.topReasons.map(
      (r) =>
        html`<li>${k.kind}: ${r.count} × <span class="message">${r.message}</span> <span class="muted">(${CATEGORY_LABEL[r.category] ?? r.category})</span></li>`,
    ),
  );
  if (items.length === 0) return html`<h2>Top failure reasons</h2><p class="muted">No failures reported.</p>`;
  return html`<h2>Top failure reasons</h2><ul id="reasons">${items}</ul>`;
}

function syncButtonAndChart(report: StatusReport): SafeHtml {
  const b = report.syncButton;
  const latency = b.p50Ms !== null ? html`; latency p50 ${b.p50Ms} ms, p99 ${b.p99Ms} ms` : '';
  const chart = report.chart.map(
    (c) =>
      html`<li>${c.kind}: ${c.mirrored} mirrored${c.failing ? html` <span class="attention">(${c.failing} failing)</span>` : ''}</li>`,
  );
  return html`<h2>Sync button</h2>
<p id="sync-button">${b.answered} answered, ${b.open} open, ${b.expired} expired${latency}</p>
<h2>Chart of accounts</h2>
${chart.length ? html`<ul id="chart">${chart}</ul>` : html`<p class="muted">Not mirrored yet.</p>`}
<p>Synced outside ledgersync, not yet acknowledged (<code>ledgersync reconcile</code> lists them; <code>--ack</code> acknowledges): ${report.externalSyncs}</p>`;
}

/**
 * The status page: what `ledgersync status` prints, with the failures a bookkeeper must fix
 * first. Server-rendered, no script; every value goes through `html`, which escapes it.
 */
export function renderStatusPage(report: StatusReport, context: StatusPageContext): string {
  const refresh =
    context.refreshSeconds > 0 ? html`<meta http-equiv="refresh" content="${context.refreshSeconds}">` : '';
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${refresh}
<title>ledgersync status</title>
<style>${PAGE_STYLE}</style>
</head>
<body>
<main>
<header>
<h1>ledgersync status</h1>
<p>Connection <code>${report.connectionId}</code> · generated ${timeWithAge(report.generatedAt, context.now)}</p>
<nav><a href="status.json">JSON</a><a href="admin/queues">Queues</a><a href="metrics">Metrics</a>${context.signedIn ? html`<a href="logout">Sign out</a>` : ''}</nav>
</header>
${healthBanner(report.health, context.now)}
${needsAction(report)}
${statusCharts(report.history)}
${scheduleTable(report.health, context.now)}
${kindsTable(report, context.now)}
${queuesTable(report.health)}
${reasons(report)}
${syncButtonAndChart(report)}
${migrationSection(context.migration)}
</main>
</body>
</html>`.value;
}
