/**
 * The migration's states and allowed moves, the same data as migration_states and
 * migration_transitions in db/migrations/0005_migration.sql (a test keeps the two in step).
 * Every step moves the row forward by one; any open state may be abandoned.
 */
export const MIGRATION_STATES = [
  'started',
  'checked',
  'backed_up',
  'target_created',
  'preloaded',
  'verified',
  'ready',
  'switched',
  'abandoned',
] as const;
export type MigrationState = (typeof MIGRATION_STATES)[number];

export const TERMINAL_STATES: readonly MigrationState[] = ['switched', 'abandoned'];

/** The steps of `migrate prepare`, in order; each one ends in the state named here. */
export const STEPS = ['check', 'backup', 'create_target', 'preload', 'verify', 'ready'] as const;
export type StepName = (typeof STEPS)[number];

export const STEP_RESULT: Record<StepName, MigrationState> = {
  check: 'checked',
  backup: 'backed_up',
  create_target: 'target_created',
  preload: 'preloaded',
  verify: 'verified',
  ready: 'ready',
};

/** The state a step starts from (the one before its result). */
export const STEP_FROM: Record<StepName, MigrationState> = {
  check: 'started',
  backup: 'checked',
  create_target: 'backed_up',
  preload: 'target_created',
  verify: 'preloaded',
  ready: 'verified',
};

export const TRANSITIONS: ReadonlyArray<readonly [MigrationState, MigrationState]> = [
  ...STEPS.map((s) => [STEP_FROM[s], STEP_RESULT[s]] as const),
  ['ready', 'switched'],
  ...MIGRATION_STATES.filter((s) => !TERMINAL_STATES.includes(s)).map((s) => [s, 'abandoned'] as const),
];

export function isTerminal(state: MigrationState): boolean {
  return TERMINAL_STATES.includes(state);
}

export function canMove(from: MigrationState, to: MigrationState): boolean {
  return TRANSITIONS.some(([f, t]) => f === from && t === to);
}

/**
 * The steps a run still has to do from `state`. Preload is repeated until verified: the mirror
 * is idempotent (no write when nothing changed) and a re-run picks up ERP changes and repairs
 * what a verification found missing.
 */
export function remainingSteps(state: MigrationState): StepName[] {
  if (isTerminal(state) || state === 'ready') return [];
  if (state === 'preloaded') return ['preload', 'verify', 'ready'];
  const index = STEPS.findIndex((s) => STEP_FROM[s] === state);
  return STEPS.slice(index);
}
