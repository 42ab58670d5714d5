import type { AccountingConnection } from '../../platform/index.ts';
import { okValues, PlatformError } from '../../platform/index.ts';
import {
  alreadyReady,
  type Blocker,
  connectionLabel,
  describeBlocker,
  noSeparateActive,
  notInactiveApi,
  otherMigrationOnPlatform,
  preconditionOf,
  refusalBlocker,
  targetMissing,
} from './blockers.ts';
import { checkpoint, moved, type StepContext, type StepOutcome, stopped } from './step-context.ts';
import { latestMigration, moveMigration } from './store.ts';
import { completeSwitch } from './switch.ts';

/**
 * Step 6: ready-to-migrate (docs/platform.md F7). The four preconditions are checked first, so each
 * gets its own message even before the platform is asked; a 409 the platform still answers is
 * mapped to the same messages. "Already ready" on our own, verified target means an earlier run
 * was interrupted after the call: the step is done.
 */
export async function readyStep(ctx: StepContext): Promise<StepOutcome> {
  const { deps, row } = ctx;
  const targetId = row.targetConnectionId!;
  const target = await deps.platform.connection.get(targetId);
  if (!target) return stopped('blocked', targetMissing(targetId));
  if (target.is_active) return alreadySwitched(ctx, target);
  const problem = await precheck(ctx, target);
  if (problem) return stopped('blocked', problem);
  if (target.is_ready_to_migrate) {
    ctx.notes.push(describeBlocker(alreadyReady(target)));
  } else {
    const refused = await markReady(ctx, target);
    if (refused) return stopped('blocked', refused);
  }
  await checkpoint(ctx, 'ready', 'applied');
  const next = moved(await moveMigration(deps.sql, row.id, 'verified', 'ready'), row.id, 'verified', 'ready');
  return {
    ok: true,
    row: next,
    detail: `connection ${targetId} is ready to migrate (is_ready_to_migrate: true)`,
  };
}

/**
 * Only a connection marked ready can become active (docs/platform.md G31, last row): an earlier
 * run's call landed, it was interrupted before recording it, and the customer has switched since.
 */
async function alreadySwitched(ctx: StepContext, target: AccountingConnection): Promise<StepOutcome> {
  const { deps, row } = ctx;
  const ready = moved(
    await moveMigration(deps.sql, row.id, 'verified', 'ready'),
    row.id,
    'verified',
    'ready',
  );
  const outcome = await completeSwitch(deps, ready);
  const next = outcome.kind === 'pending' ? ready : ((await latestMigration(deps.sql)) ?? ready);
  ctx.notes.push(
    `The customer has already switched to connection ${connectionLabel(target)}.` +
      (outcome.kind === 'pending'
        ? ' A sync of the connection left is still running; the switch is recorded as soon as it ends.'
        : ''),
  );
  return {
    ok: true,
    row: next,
    detail: `connection ${target.id} was marked ready and is now the active connection`,
  };
}

/** Preconditions 1, 2 and 4 as the platform states them now (3 is handled by the caller). */
async function precheck(ctx: StepContext, target: AccountingConnection): Promise<Blocker | null> {
  if (target.is_active || target.connection_type !== 'API') return notInactiveApi(target);
  const all = okValues(await ctx.deps.platform.connection.all());
  const active = all.find((c) => c.is_active);
  if (!active || active.id === target.id) return noSeparateActive(target.id);
  const other = all.find((c) => c.id !== target.id && c.is_ready_to_migrate);
  if (other) return otherMigrationOnPlatform(other);
  return null;
}

async function markReady(ctx: StepContext, target: AccountingConnection): Promise<Blocker | null> {
  try {
    await ctx.deps.platform.connection.markReadyToMigrate(target.id);
    return null;
  } catch (error) {
    if (!(error instanceof PlatformError) || error.status !== 409) throw error;
    const precondition = preconditionOf(error.additionalInfo, error.message);
    if (precondition === 'not_already_ready') {
      // Marked between our read and our call (another runner, or a retried request that landed).
      const now = await ctx.deps.platform.connection.get(target.id);
      if (now?.is_ready_to_migrate) {
        ctx.notes.push(describeBlocker(alreadyReady(now)));
        return null;
      }
    }
    const other =
      precondition === 'no_migration_in_progress'
        ? okValues(await ctx.deps.platform.connection.all()).find(
            (c) => c.id !== target.id && c.is_ready_to_migrate,
          )
        : undefined;
    return refusalBlocker(precondition, target, error.message, other);
  }
}
