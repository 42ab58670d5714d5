import { withAdvisoryLock } from '../advisory-lock.ts';
import {
  type Blocker,
  busy,
  describeBlocker,
  noSeparateActive,
  notInactiveApi,
  otherMigrationHere,
} from './blockers.ts';
import { migrationLockName } from './lock-names.ts';
import { nextSteps } from './next-steps.ts';
import { remainingSteps, type StepName } from './states.ts';
import { backupStep } from './step-backup.ts';
import { checkStep, recheckStep } from './step-check.ts';
import { checkpoint, type StepContext, type StepOutcome } from './step-context.ts';
import { createTargetStep } from './step-create-target.ts';
import { preloadStep } from './step-preload.ts';
import { readyStep } from './step-ready.ts';
import { verifyStep } from './step-verify.ts';
import { latestMigration, loadBackup, openMigration, recordError, startMigration } from './store.ts';
import { completeSwitch } from './switch.ts';
import type { MigrationDeps, MigrationRow, PrepareOptions, PrepareOutcome, PrepareResult } from './types.ts';

type StepRunner = (ctx: StepContext) => Promise<StepOutcome>;

const STEP_RUNNERS: Record<StepName, StepRunner> = {
  check: checkStep,
  backup: backupStep,
  create_target: createTargetStep,
  preload: preloadStep,
  verify: verifyStep,
  ready: readyStep,
};

/**
 * `migrate prepare` (docs/platform.md G30, F6, F7): check, back up, create the inactive
 * connection, preload, verify, ready-to-migrate. Each step moves the migration's state in
 * Postgres once it is done, so a run interrupted anywhere is finished by the next one without
 * repeating what was done; a run after success changes nothing and says so.
 */
export async function prepareMigration(deps: MigrationDeps, options: PrepareOptions): Promise<PrepareResult> {
  const result = emptyResult(options.provider);
  const locked = await withAdvisoryLock(deps.sql, await migrationLockName(deps.sql), (lockLost) =>
    run(deps, options, result, lockLost),
  );
  if (locked.busy) return { ...result, outcome: 'busy', blocker: busy() };
  return locked.value;
}

async function run(
  deps: MigrationDeps,
  options: PrepareOptions,
  result: PrepareResult,
  lockLost: AbortSignal,
): Promise<PrepareResult> {
  const begun = await begin(deps, options, result);
  if (!('id' in begun)) return begun;
  const ctx: StepContext = { deps, options, row: begun, notes: result.notes };
  // Resumed past the check: what is outstanding now, not what the first run counted.
  const plan = remainingSteps(begun.state).map((step): [StepName, StepRunner] => [step, STEP_RUNNERS[step]]);
  if (begun.state !== 'started') plan.unshift(['check', recheckStep]);
  for (const [step, runStep] of plan) {
    options.signal?.throwIfAborted();
    // The lock's session ended (the database restarted): another prepare may start now.
    lockLost.throwIfAborted();
    let outcome: StepOutcome;
    try {
      outcome = await runStep(ctx);
    } catch (error) {
      await recordError(
        deps.sql,
        ctx.row.id,
        `${step}: ${error instanceof Error ? error.message : String(error)}`,
      );
      throw error;
    }
    if (!outcome.ok) {
      await recordError(deps.sql, ctx.row.id, `${step}: ${describeBlocker(outcome.blocker)}`);
      return finish(deps, result, ctx.row, outcome.outcome, outcome.blocker);
    }
    ctx.row = outcome.row;
    if (outcome.backupFile) result.backupFile = outcome.backupFile;
    const event = { step, detail: outcome.detail };
    result.steps.push(event);
    options.onStep?.(event);
    await checkpoint(ctx, step, 'recorded');
  }
  return finish(deps, result, ctx.row, 'ready');
}

/** The migration to work on, or the final answer when there is nothing to work on. */
async function begin(
  deps: MigrationDeps,
  options: PrepareOptions,
  result: PrepareResult,
): Promise<MigrationRow | PrepareResult> {
  let open = await openMigration(deps.sql);
  if (open?.state === 'ready') {
    const switched = await observeSwitch(deps, open, result.notes);
    if (!switched) return alreadyPrepared(deps, result, open, options);
    open = null;
  }
  if (open) {
    const sameTarget = !options.targetConnectionId || options.targetConnectionId === open.targetConnectionId;
    if (open.provider !== options.provider || !sameTarget) {
      return finish(deps, result, open, 'blocked', otherMigrationHere(open));
    }
    result.notes.push(`Resuming migration #${open.id} from state ${open.state}.`);
    return open;
  }
  return startNew(deps, options, result);
}

async function startNew(
  deps: MigrationDeps,
  options: PrepareOptions,
  result: PrepareResult,
): Promise<MigrationRow | PrepareResult> {
  const source = options.sourceConnectionId
    ? await deps.platform.connection.get(options.sourceConnectionId)
    : await deps.platform.connection.getActive();
  const last = await latestMigration(deps.sql);
  if (
    last?.state === 'switched' &&
    last.provider === options.provider &&
    last.targetConnectionId === source?.id
  ) {
    result.notes.push(
      `The customer already switched to "${last.provider}" (connection ${last.targetConnectionId}) on ${last.finishedAt?.toISOString()}: nothing to do.`,
    );
    return finish(deps, result, last, 'unchanged');
  }
  if (source && source.id === options.targetConnectionId) {
    return { ...result, outcome: 'blocked', blocker: notInactiveApi(source) };
  }
  if (!source?.is_active) {
    return { ...result, outcome: 'blocked', blocker: noSeparateActive(options.targetConnectionId ?? null) };
  }
  const row = await startMigration(deps.sql, {
    sourceConnectionId: source.id,
    provider: options.provider,
    targetConnectionId: options.targetConnectionId ?? null,
  });
  if (!row) return { ...result, outcome: 'busy', blocker: busy() };
  return row;
}

/**
 * A ready migration whose target became the active connection: the customer switched. Recorded
 * (with the old connection's unfinished work carried over) unless a sync of the old connection is
 * running: then it stays ready, and the worker records it when that sync ends.
 */
async function observeSwitch(deps: MigrationDeps, open: MigrationRow, notes: string[]): Promise<boolean> {
  const target = open.targetConnectionId ? await deps.platform.connection.get(open.targetConnectionId) : null;
  if (!target?.is_active) return false;
  const outcome = await completeSwitch(deps, open);
  if (outcome.kind !== 'pending') return true;
  notes.push(
    `The customer has switched to connection ${target.id}; a sync of the connection left is still running, ` +
      'and the switch is recorded as soon as it ends.',
  );
  return false;
}

async function alreadyPrepared(
  deps: MigrationDeps,
  result: PrepareResult,
  open: MigrationRow,
  options: PrepareOptions,
): Promise<PrepareResult> {
  if (open.provider !== options.provider)
    return finish(deps, result, open, 'blocked', otherMigrationHere(open));
  result.notes.push(
    `Migration #${open.id} to "${open.provider}" is already prepared: connection ${open.targetConnectionId} has been ` +
      `ready to migrate since ${open.readyAt?.toISOString()}. Nothing changed.`,
  );
  return finish(deps, result, open, 'unchanged');
}

async function finish(
  deps: MigrationDeps,
  result: PrepareResult,
  row: MigrationRow,
  outcome: PrepareOutcome,
  blocker: Blocker | null = null,
): Promise<PrepareResult> {
  const backup = result.backupFile ?? (await loadBackup(deps.sql, row.id))?.filePath ?? null;
  const ready = row.state === 'ready' && (outcome === 'ready' || outcome === 'unchanged');
  return {
    ...result,
    outcome,
    migrationId: row.id,
    state: row.state,
    sourceConnectionId: row.sourceConnectionId,
    targetConnectionId: row.targetConnectionId,
    provider: row.provider,
    backupFile: backup,
    blocker,
    nextSteps: ready
      ? nextSteps({ provider: row.provider, targetId: row.targetConnectionId!, backupFile: backup })
      : [],
  };
}

function emptyResult(provider: string): PrepareResult {
  return {
    outcome: 'ready',
    migrationId: null,
    state: null,
    sourceConnectionId: null,
    targetConnectionId: null,
    provider,
    backupFile: null,
    steps: [],
    blocker: null,
    notes: [],
    nextSteps: [],
  };
}
