import type { MigrationProgress } from '../../sync/connection-migration/index.ts';
import { progressLines } from '../../sync/connection-migration/index.ts';
import { html, type SafeHtml } from './html.ts';

/**
 * The status page's connection-migration section: the lines `ledgersync status` prints, with the
 * steps as a list a person ticks off. Nothing when no migration was ever prepared.
 */
export function migrationSection(progress: MigrationProgress | null | undefined): SafeHtml | '' {
  if (!progress) return '';
  const [headline, ...details] = progressLines(progress);
  const steps = progress.steps.map(
    (s) =>
      html`<li class="${s.done ? 'ok' : s.step === progress.nextStep && progress.running ? 'attention' : 'muted'}">${s.done ? '✓' : '·'} ${s.step.replaceAll('_', ' ')}</li>`,
  );
  return html`<h2>Connection migration</h2>
<section id="migration" data-state="${progress.state}" data-phase="${progress.phase}">
<p>${headline ?? ''}</p>
${details.length ? html`<p class="muted">${details.map((d, i) => html`${i ? html`<br>` : ''}${d.trim()}`)}</p>` : ''}
<ol class="steps">${steps}</ol>
</section>`;
}
