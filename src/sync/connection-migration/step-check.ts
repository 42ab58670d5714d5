import { okValues } from '../../platform/index.ts';
import { otherMigrationOnPlatform } from './blockers.ts';
import { findOutstanding, outstandingBlocker } from './outstanding.ts';
import { checkpoint, moved, type StepContext, type StepOutcome, stopped } from './step-context.ts';
import { moveMigration, recordDetails } from './store.ts';

/**
 * Step 1, what must be true first (docs/platform.md G30, F7): no other migration in
 * progress on the platform, and no object left unsynced on the connection being left.
 */
export async function checkStep(ctx: StepContext): Promise<StepOutcome> {
  const { deps, options, row } = ctx;
  const connections = okValues(await deps.platform.connection.all());
  const other = connections.find((c) => c.is_ready_to_migrate && c.id !== row.targetConnectionId);
  if (other) return stopped('blocked', otherMigrationOnPlatform(other));

  const source = connections.find((c) => c.id === row.sourceConnectionId) ?? {
    id: row.sourceConnectionId,
    connection_type: 'API',
  };
  const outstanding = await findOutstanding(deps, source, {
    runSync: options.skipSync !== true,
    signal: options.signal,
  });
  if (outstanding.total > 0 && options.force !== true) {
    return stopped('blocked', outstandingBlocker(outstanding, source.connection_type));
  }
  if (outstanding.total > 0) {
    ctx.notes.push(
      `--force: ${outstanding.total} objects were left unsynced on ${row.sourceConnectionId}; they are recorded ` +
        'with the migration (`migrate status --json`) and must be entered by hand.',
    );
  }
  await checkpoint(ctx, 'check', 'applied');
  const next = moved(
    await moveMigration(deps.sql, row.id, 'started', 'checked', { outstanding }),
    row.id,
    'started',
    'checked',
  );
  const synced = outstanding.synced ? 'ready objects synced; ' : '';
  const left = outstanding.total > 0 ? `${outstanding.total} left unsynced (--force)` : 'nothing outstanding';
  return { ok: true, row: next, detail: `${synced}${left}; no other migration in progress` };
}

/**
 * A resumed run checks again what is outstanding on the connection being left, rather than
 * trusting the count its first run recorded: objects became ready since, or a run killed in the
 * middle of the first sync left some. The same rules as step 1 (sync first, then list; --force
 * goes on); the state does not move, the new count replaces the old one.
 */
export async function recheckStep(ctx: StepContext): Promise<StepOutcome> {
  const { deps, options, row } = ctx;
  const connections = okValues(await deps.platform.connection.all());
  const source = connections.find((c) => c.id === row.sourceConnectionId) ?? {
    id: row.sourceConnectionId,
    connection_type: 'API',
  };
  const outstanding = await findOutstanding(deps, source, {
    runSync: options.skipSync !== true,
    signal: options.signal,
  });
  await recordDetails(deps.sql, row.id, row.state, { outstanding });
  if (outstanding.total > 0 && options.force !== true) {
    return stopped('blocked', outstandingBlocker(outstanding, source.connection_type));
  }
  if (outstanding.total > 0) {
    ctx.notes.push(
      `--force: ${outstanding.total} objects were left unsynced on ${row.sourceConnectionId}; they are recorded ` +
        'with the migration (`migrate status --json`) and must be entered by hand.',
    );
  }
  const synced = outstanding.synced ? 'ready objects synced; ' : '';
  const left = outstanding.total > 0 ? `${outstanding.total} left unsynced (--force)` : 'nothing outstanding';
  return { ok: true, row, detail: `checked again on resume: ${synced}${left}` };
}
