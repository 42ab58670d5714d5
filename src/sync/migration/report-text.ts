import { describeBlocker } from './blockers.ts';
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
  return `${c.id} ("${c.remote_provider_name}") ${flags.join(', ')}`;
}
