import {
  ageOf,
  clockOf,
  type Health,
  type HealthState,
  spanOf,
  untilOf,
  type WorkerSeen,
} from '../../operations/index.ts';
import { html, type SafeHtml } from './html.ts';

const STATE_LABEL: Record<HealthState, string> = {
  ok: 'OK',
  attention: 'Needs a look',
  problem: 'Problem',
};

/** A time as ISO 8601 (UTC, to the second) with how long ago or until it is. */
export function timeWithAge(iso: string, now: Date, direction: 'ago' | 'until' = 'ago'): SafeHtml {
  const shown = `${iso.slice(0, 19)}Z`;
  const relative = direction === 'ago' ? `${ageOf(iso, now.getTime())} ago` : untilOf(iso, now.getTime());
  return html`<time datetime="${iso}">${shown}</time> <span class="muted">(${relative})</span>`;
}

function workerLine(w: WorkerSeen, now: Date): SafeHtml {
  const parts = [
    w.queues.length > 0 ? 'jobs' : null,
    w.schedules ? 'schedules' : null,
    w.server ? 'server' : null,
  ].filter(Boolean);
  const clock = clockOf(w);
  return html`<li><code>${w.host}:${w.pid}</code> ${parts.join(', ') || 'nothing'} · heartbeat ${spanOf(w.ageSeconds)} ago${clock ? ` · ${clock}` : ''} · up since ${timeWithAge(w.startedAt, now)}</li>`;
}

/**
 * The health banner: green, amber or red, its findings worst first, and the workers heard from.
 * It comes first on the page, so whether syncs happen is the first thing read.
 */
export function healthBanner(health: Health, now: Date): SafeHtml {
  const [headline, ...rest] = health.findings;
  const more = rest.length ? html`<ul>${rest.map((f) => html`<li>${f}</li>`)}</ul>` : '';
  const workers = health.workers.length
    ? html`<ul class="workers">${health.workers.map((w) => workerLine(w, now))}</ul>`
    : '';
  return html`<section id="health" class="banner banner-${health.state}" data-state="${health.state}">
<p class="headline"><strong>${STATE_LABEL[health.state]}:</strong> ${headline ?? ''}</p>
${more}${workers}
</section>`;
}

/** Per kind: the last run that went well and the next one its schedule starts. */
export function scheduleTable(health: Health, now: Date): SafeHtml {
  const rows = health.kinds.map((k) => {
    const good = k.lastGoodRun
      ? html`${timeWithAge(k.lastGoodRun.finishedAt, now)} <span class="muted">${k.lastGoodRun.trigger}</span>`
      : html`<span class="muted">none yet</span>`;
    const next = k.nextScheduledRun
      ? timeWithAge(k.nextScheduledRun.at, now, 'until')
      : html`<span class="muted">not scheduled (no worker runs the schedules)</span>`;
    return html`<tr><td>${k.kind === 'coa' ? 'chart of accounts' : k.kind}</td><td>${good}</td><td>${next}</td></tr>`;
  });
  return html`<h2>Runs</h2>
<table id="schedule"><thead><tr><th>Kind</th><th>Last good run</th><th>Next scheduled run</th></tr></thead>
<tbody>${rows}</tbody></table>`;
}

/** Jobs per queue and state; stalled and failed ones stand out. */
export function queuesTable(health: Health): SafeHtml {
  if (!health.queues) {
    return html`<h2>Queues</h2><p class="problem">Redis could not be read: ${health.redisError ?? 'unknown error'}.</p>`;
  }
  const rows = health.queues.map(
    (q) => html`<tr><td>${q.queue}</td><td class="n">${q.waiting}</td><td class="n">${q.active}</td>
<td class="n">${q.delayed}</td><td class="n${q.failed ? ' attention' : ''}">${q.failed}</td>
<td class="n${q.stalled ? ' attention' : ''}">${q.stalled}</td></tr>`,
  );
  return html`<h2>Queues</h2>
<table id="queues"><thead><tr><th>Queue</th><th class="n">Waiting</th><th class="n">Active</th><th class="n">Delayed</th>
<th class="n">Failed</th><th class="n">Stalled</th></tr></thead>
<tbody>${rows}</tbody></table>`;
}
