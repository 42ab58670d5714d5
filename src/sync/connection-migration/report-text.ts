import { connectionLabel, describeBlocker } from './blockers.ts';
import type { MigrationProgress } from './progress.ts';
import type { RestoreResult } from './restore.ts';
import type { MigrationStatus } from './status.ts';
import type { PrepareResult, StepEvent } from './types.ts';

/** The lines a person reads: one per step as it finishes, then the outcome. */
export function stepLine(event: StepEvent): string {
  return `✓ ${event.step.replaceAll('_', ' ')}: ${event.detail}`;
}

export function prepareText(result: PrepareResult): string {
  const lines: string[] = [...result.notes];
  if (result.outcome === 'ready') {
    lines.push(
      `Migration #${result.migrationId} is prepared: connection ${result.targetConnectionId} ("${result.provider}") is ready to migrate.`,
    );
  }
  if (result.blocker) lines.push(describeBlocker(result.blocker));
  if (result.nextSteps.length > 0) {
    lines.push('Next:');
    result.nextSteps.forEach((step, i) => {
      lines.push(`  ${i + 1}. ${step}`);
    });
  }
  return `${lines.join('\n')}\n`;
}

export function statusText(status: MigrationStatus): string {
  const m = status.migration;
  if (!m)
    return 'No migration has been prepared. Start one with `npx ledgersync migrate prepare --provider "<name>"`.\n';
  const lines = [
    `Migration #${m.id} to "${m.provider}": ${m.state} (${status.readiness}), started ${m.startedAt}`,
    `  steps: ${m.steps.map((s) => `${s.done ? '✓' : '·'} ${s.step.replaceAll('_', ' ')}`).join('  ')}`,
    `  current connection: ${connectionLine(status.source)}`,
    `  new connection:     ${connectionLine(status.target)}`,
  ];
  if (m.counts) {
    const counts = Object.entries(m.counts).map(
      ([list, c]) => `${list.replaceAll('_', ' ')} ${c.platform}/${c.erp}`,
    );
    lines.push(`  preloaded (new connection / ERP): ${counts.join(', ')}`);
  }
  if (m.backup) lines.push(`  backup: ${m.backup.items} items in ${m.backup.file} (${m.backup.takenAt})`);
  if (m.outstandingLeftBehind > 0) lines.push(`  left unsynced under --force: ${m.outstandingLeftBehind}`);
  if (m.readyAt) lines.push(`  ready to migrate since ${m.readyAt}`);
  if (m.lastError && m.state !== 'ready' && m.state !== 'switched') lines.push(`  stopped: ${m.lastError}`);
  return `${lines.join('\n')}\n`;
}

function connectionLine(c: MigrationStatus['source']): string {
  if (!c) return '(not on the platform)';
  const flags = [
    c.is_active ? 'active' : 'inactive',
    c.connection_type,
    c.status,
    c.is_ready_to_migrate ? 'ready to migrate' : 'not ready to migrate',
  ];
  return `${connectionLabel(c)} ${flags.join(', ')}`;
}

/**
 * What `status` says of the latest migration: where it stands, whether a run is at it now, the
 * job that runs it, and why it stopped. The status page shows the same lines.
 */
export function progressLines(p: MigrationProgress): string[] {
  const head = `Migration #${p.id} to "${p.provider}"`;
  const lines: string[] = [];
  switch (p.phase) {
    case 'switched':
      lines.push(
        `${head}: switched${p.finishedAt ? ` ${p.finishedAt}` : ''}; connection ${p.targetConnectionId} is synced now, ${p.sourceConnectionId} is left as it was.`,
      );
      break;
    case 'abandoned':
      lines.push(`${head}: abandoned${p.finishedAt ? ` ${p.finishedAt}` : ''}.`);
      break;
    case 'ready':
      lines.push(
        `${head}: ready to migrate since ${p.readyAt}; waiting for the customer to switch to connection ${p.targetConnectionId} in the platform.`,
      );
      break;
    default:
      lines.push(
        `${head}: ${p.state}, ${p.done} of ${p.total} steps done` +
          `${p.nextStep ? ` (${p.running ? 'running' : 'next'}: ${p.nextStep.replaceAll('_', ' ')})` : ''}` +
          `${p.running ? '' : '; not running now'}, updated ${p.updatedAt}.`,
      );
  }
  if (p.job && p.phase === 'in_progress') {
    const step = (p.job.progress as { step?: string; detail?: string } | null)?.detail;
    lines.push(
      `  job ${p.job.id}: ${p.job.state}, attempt ${p.job.attemptsMade + (p.job.state === 'active' ? 1 : 0)}` +
        `${step ? `; last step: ${step}` : ''}${p.job.failedReason ? `; failed: ${firstLine(p.job.failedReason)}` : ''}`,
    );
  }
  if (p.lastError)
    lines.push(`  stopped: ${firstLine(p.lastError)} (\`migrate status\` has the whole message)`);
  return lines;
}

function firstLine(text: string): string {
  return text.split('\n')[0] ?? text;
}

/** What `migrate restore` did: per list, then what was skipped or refused, and what to do. */
export function restoreText(result: RestoreResult): string {
  const b = result.backup;
  const from = b.origin === 'file' ? b.file : `the database copy of migration #${b.migrationId}`;
  if (result.outcome === 'busy') {
    return (
      `The chart of connection ${result.connectionId} is being written by another run (a chart mirror, a preload ` +
      'or a restore); nothing was done. Run the restore again once it has finished.\n'
    );
  }
  const lines = [
    ...result.notes,
    `${result.outcome === 'restored' ? 'Restored' : 'Restored in part'}: the chart backed up from connection ` +
      `${b.connectionId} on ${b.takenAt} (${from}) onto connection ${result.connectionId}, ${result.writeCalls} write calls.`,
  ];
  for (const [kind, c] of Object.entries(result.kinds)) {
    const parts = [
      `${c.created} created`,
      c.adopted ? `${c.adopted} already there (adopted)` : '',
      c.updated ? `${c.updated} updated` : '',
      c.reactivated ? `${c.reactivated} reactivated` : '',
      c.deactivated ? `${c.deactivated} deactivated` : '',
      c.hidden ? `${c.hidden} hidden` : '',
      `${c.unchanged} unchanged`,
      c.failed ? `${c.failed} refused` : '',
    ].filter(Boolean);
    lines.push(`  ${kind.replaceAll('_', ' ')}: ${parts.join(', ')}`);
  }
  if (result.skipped.length > 0) {
    lines.push(`Not restored, as the backup holds them (${result.skipped.length}):`);
    for (const s of result.skipped.slice(0, 10)) lines.push(`  ${s.list} ${s.id}: ${s.reason}`);
    if (result.skipped.length > 10)
      lines.push(`  and ${result.skipped.length - 10} more (--json lists them all)`);
  }
  if (result.failures.length > 0) {
    lines.push(`Refused by the platform (${result.failures.length}):`);
    for (const f of result.failures.slice(0, 10)) {
      lines.push(
        `  ${f.kind} ${f.parentRemoteId ? `${f.parentRemoteId}/` : ''}${f.remoteId} (${f.action}): ${f.reason}`,
      );
    }
    if (result.failures.length > 10)
      lines.push(`  and ${result.failures.length - 10} more (--json lists them all)`);
    lines.push(
      'What to do: correct what the platform names, then run the same restore again; it picks up where it stopped.',
    );
  }
  return `${lines.join('\n')}\n`;
}
