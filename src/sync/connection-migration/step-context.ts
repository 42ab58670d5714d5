import type { Blocker } from './blockers.ts';
import type { MigrationState, StepName } from './states.ts';
import type { MigrationDeps, MigrationRow, PrepareOptions } from './types.ts';

/** What every step gets: the dependencies, the run's options and the migration as it stands. */
export interface StepContext {
  deps: MigrationDeps;
  options: PrepareOptions;
  row: MigrationRow;
  /** Worth knowing, not stopping: collected into the result. */
  notes: string[];
}

export type StepOutcome =
  | { ok: true; row: MigrationRow; detail: string; backupFile?: string }
  | { ok: false; outcome: 'blocked' | 'incomplete' | 'busy'; blocker: Blocker };

export function stopped(outcome: 'blocked' | 'incomplete' | 'busy', blocker: Blocker): StepOutcome {
  return { ok: false, outcome, blocker };
}

/** The migration moved by another process between our read and our update: never expected. */
class MigrationMovedError extends Error {
  override name = 'MigrationMovedError';
  constructor(id: string, from: MigrationState, to: MigrationState) {
    super(
      `migration #${id} is no longer in state ${from}; it was not moved to ${to}. Run \`migrate status\`.`,
    );
  }
}

/** A moved row, or the error saying it could not be moved. */
export function moved(
  row: MigrationRow | null,
  id: string,
  from: MigrationState,
  to: MigrationState,
): MigrationRow {
  if (!row) throw new MigrationMovedError(id, from, to);
  return row;
}

export async function checkpoint(ctx: StepContext, step: StepName, phase: 'applied' | 'recorded') {
  await ctx.options.checkpoint?.(step, phase);
}
