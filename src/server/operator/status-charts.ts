import { OUTBOX_STEP_MS, type StatusHistory } from '../../operations/index.ts';
import { html, type SafeHtml } from './html.ts';

/**
 * Small charts drawn on the server as inline SVG (no script, no image route: the page's CSP
 * allows neither). Each has a title and a tooltip per mark, and says so when there is nothing to
 * draw yet. Colours are presentation attributes, not style.
 */

const WIDTH = 360;
const HEIGHT = 150;
const PAD = { left: 40, right: 10, top: 12, bottom: 24 };
const PLOT_W = WIDTH - PAD.left - PAD.right;
const PLOT_H = HEIGHT - PAD.top - PAD.bottom;
const COLOR = {
  ok: '#1e7b34',
  bad: '#a4262c',
  badLight: '#f3d6d8',
  line: '#2450b2',
  area: '#c9d6f2',
  grid: '#dde1e8',
  text: '#5b6475',
};

/** Coordinates keep one decimal: enough for a 360-wide chart, and a stable markup. */
const r1 = (n: number) => Math.round(n * 10) / 10;
const yOf = (value: number, max: number) => r1(PAD.top + PLOT_H - (max > 0 ? (value / max) * PLOT_H : 0));
const isoShort = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

/** A round upper bound for the axis: 1, 2, 5, 10, 20, 50, … at or above `max`. */
export function niceMax(max: number): number {
  if (max <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 5, 10]) if (step * power >= max) return step * power;
  return 10 * power;
}

function frame(id: string, title: string, body: SafeHtml | SafeHtml[]): SafeHtml {
  return html`<svg id="${id}" class="chart" role="img" aria-labelledby="${id}-title" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" xmlns="http://www.w3.org/2000/svg">
<title id="${id}-title">${title}</title>
${body}
</svg>`;
}

function yAxis(max: number, unit: string): SafeHtml {
  const top = PAD.top;
  const bottom = PAD.top + PLOT_H;
  const mid = r1((top + bottom) / 2);
  const label = (value: number) => `${Number.isInteger(value) ? value : value.toFixed(1)}${unit}`;
  return html`<g font-size="10" fill="${COLOR.text}">
<line x1="${PAD.left}" y1="${bottom}" x2="${WIDTH - PAD.right}" y2="${bottom}" stroke="${COLOR.grid}"/>
<line x1="${PAD.left}" y1="${mid}" x2="${WIDTH - PAD.right}" y2="${mid}" stroke="${COLOR.grid}" stroke-dasharray="3 3"/>
<line x1="${PAD.left}" y1="${top}" x2="${WIDTH - PAD.right}" y2="${top}" stroke="${COLOR.grid}" stroke-dasharray="3 3"/>
<text x="${PAD.left - 4}" y="${bottom + 3}" text-anchor="end">${label(0)}</text>
<text x="${PAD.left - 4}" y="${mid + 3}" text-anchor="end">${label(max / 2)}</text>
<text x="${PAD.left - 4}" y="${top + 3}" text-anchor="end">${label(max)}</text>
</g>`;
}

function xLabels(left: string, right: string): SafeHtml {
  const y = HEIGHT - 6;
  return html`<g font-size="10" fill="${COLOR.text}">
<text x="${PAD.left}" y="${y}">${left}</text>
<text x="${WIDTH - PAD.right}" y="${y}" text-anchor="end">${right}</text>
</g>`;
}

function empty(message: string): SafeHtml {
  return html`<text x="${WIDTH / 2}" y="${HEIGHT / 2}" text-anchor="middle" font-size="12" fill="${COLOR.text}">${message}</text>`;
}

/**
 * Failed objects per run, one bar per run (oldest left): red where objects failed, a green tick
 * where none did, and a pale red column for a run that stopped with an error.
 */
function failuresPerRunChart(runs: StatusHistory['runs']): SafeHtml {
  const title = `Failed objects per run (last ${runs.length} runs)`;
  if (runs.length === 0) return frame('chart-failures', title, empty('No runs yet'));
  const max = niceMax(Math.max(...runs.map((run) => run.failed)));
  const slot = PLOT_W / Math.max(runs.length, 10);
  const barWidth = r1(Math.max(2, slot * 0.7));
  const bottom = PAD.top + PLOT_H;
  const bars = runs.map((run, i) => {
    const x = r1(PAD.left + i * slot + (slot - barWidth) / 2);
    const tip = `${run.kind} · ${isoShort(run.startedAt)} · ${run.trigger} · ${run.status}: ${run.posted} posted, ${run.failed} failed`;
    const crashed =
      run.status === 'failed'
        ? html`<rect x="${x}" y="${PAD.top}" width="${barWidth}" height="${PLOT_H}" fill="${COLOR.badLight}"/>`
        : '';
    const mark =
      run.failed > 0
        ? html`<rect class="bar-failed" x="${x}" y="${yOf(run.failed, max)}" width="${barWidth}" height="${r1(bottom - yOf(run.failed, max))}" fill="${COLOR.bad}"/>`
        : html`<rect class="bar-clean" x="${x}" y="${bottom - 2}" width="${barWidth}" height="2" fill="${COLOR.ok}"/>`;
    return html`<g><title>${tip}</title>${crashed}${mark}</g>`;
  });
  const first = runs[0]!;
  const last = runs.at(-1)!;
  return frame('chart-failures', title, [
    yAxis(max, ''),
    ...bars,
    xLabels(isoShort(first.startedAt), isoShort(last.startedAt)),
  ]);
}

/** Time from press to answer of each answered sync-button request, against when it was pressed. */
function buttonLatencyChart(points: StatusHistory['buttonLatency']): SafeHtml {
  const title = `Sync-button latency (last ${points.length} answered presses)`;
  if (points.length === 0)
    return frame('chart-button-latency', title, empty('No sync-button presses answered yet'));
  const seconds = points.map((p) => p.ms / 1000);
  const max = niceMax(Math.max(...seconds));
  const times = points.map((p) => Date.parse(p.at));
  const t0 = Math.min(...times);
  const span = Math.max(...times) - t0;
  // Evenly spaced when all presses came at once; by time otherwise.
  const xOf = (i: number) =>
    r1(
      PAD.left +
        (span > 0 ? ((times[i]! - t0) / span) * PLOT_W : (i / Math.max(1, points.length - 1)) * PLOT_W),
    );
  const coords = points.map((_, i) => `${xOf(i)},${yOf(seconds[i]!, max)}`).join(' ');
  const dots = points.map(
    (p, i) =>
      html`<circle cx="${xOf(i)}" cy="${yOf(seconds[i]!, max)}" r="2.5" fill="${COLOR.line}"><title>${isoShort(p.at)}: ${(p.ms / 1000).toFixed(1)} s</title></circle>`,
  );
  return frame('chart-button-latency', title, [
    yAxis(max, ' s'),
    html`<polyline points="${coords}" fill="none" stroke="${COLOR.line}" stroke-width="1.5"/>`,
    ...dots,
    xLabels(isoShort(points[0]!.at), isoShort(points.at(-1)!.at)),
  ]);
}

/** "10:30" of an ISO time: the hour and minute in UTC. */
const clockUtc = (iso: string) => iso.slice(11, 16);

/**
 * Results waiting for the platform's acknowledgement over the last day, as a filled step line of
 * the peak of each 30 minutes, and what waits now as a dot at the right edge: the last step's
 * peak may be 30 minutes old, and drawn alone it read as the present.
 */
function outboxDepthChart(history: Pick<StatusHistory, 'outboxDepth' | 'outboxNow'>): SafeHtml {
  const { outboxDepth: steps, outboxNow: now } = history;
  const title = `Results waiting for the platform (last 24 h, peak per 30 min; ${now} waiting now)`;
  if (steps.length === 0) return frame('chart-outbox', title, empty('No data'));
  const max = niceMax(Math.max(now, ...steps.map((s) => s.items)));
  const width = PLOT_W / steps.length;
  const bottom = PAD.top + PLOT_H;
  let path = `M${PAD.left},${bottom}`;
  steps.forEach((s, i) => {
    const y = yOf(s.items, max);
    path += ` L${r1(PAD.left + i * width)},${y} L${r1(PAD.left + (i + 1) * width)},${y}`;
  });
  path += ` L${WIDTH - PAD.right},${bottom} Z`;
  const startOf = (i: number) =>
    i > 0 ? steps[i - 1]!.at : new Date(Date.parse(steps[0]!.at) - OUTBOX_STEP_MS).toISOString();
  const tips = steps.map(
    (s, i) =>
      html`<rect x="${r1(PAD.left + i * width)}" y="${PAD.top}" width="${r1(width)}" height="${PLOT_H}" fill="transparent"><title>${isoShort(startOf(i)).replace(' UTC', '')}–${clockUtc(s.at)} UTC: ${s.items} waiting at most</title></rect>`,
  );
  const end = WIDTH - PAD.right;
  const nowMark = html`<circle class="outbox-now" cx="${end}" cy="${yOf(now, max)}" r="3" fill="${COLOR.line}"><title>now (${isoShort(steps.at(-1)!.at)}): ${now} waiting</title></circle>`;
  return frame('chart-outbox', title, [
    yAxis(max, ''),
    html`<path d="${path}" fill="${COLOR.area}" stroke="${COLOR.line}" stroke-width="1"/>`,
    ...tips,
    nowMark,
    xLabels(`${clockUtc(startOf(0))} UTC`, `now ${clockUtc(steps.at(-1)!.at)} UTC: ${now}`),
  ]);
}

/** The three charts, side by side where the page is wide enough. */
export function statusCharts(history: StatusHistory): SafeHtml {
  return html`<h2>At a glance</h2>
<div class="charts">
<figure>${failuresPerRunChart(history.runs)}<figcaption>Failed objects per run</figcaption></figure>
<figure>${buttonLatencyChart(history.buttonLatency)}<figcaption>Sync-button latency</figcaption></figure>
<figure>${outboxDepthChart(history)}<figcaption>Outbox depth</figcaption></figure>
</div>`;
}
