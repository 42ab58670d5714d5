import { describe, expect, it } from 'vitest';
import {
  canMove,
  isTerminal,
  MIGRATION_STATES,
  remainingSteps,
  STEP_FROM,
  STEP_RESULT,
  STEPS,
  TRANSITIONS,
} from '../../../../src/sync/connection-migration/states.ts';

describe('the migration state machine (docs/platform.md G31)', () => {
  it('each step moves one state forward, in the order of rule 5', () => {
    expect(STEPS).toEqual(['check', 'backup', 'create_target', 'preload', 'verify', 'ready']);
    for (const [i, step] of STEPS.entries()) {
      expect(canMove(STEP_FROM[step], STEP_RESULT[step])).toBe(true);
      if (i > 0) expect(STEP_FROM[step]).toBe(STEP_RESULT[STEPS[i - 1]!]);
    }
  });

  it('allows no skipping, no going back, and nothing out of switched or abandoned', () => {
    expect(canMove('started', 'backed_up')).toBe(false);
    expect(canMove('verified', 'preloaded')).toBe(false);
    expect(canMove('started', 'ready')).toBe(false);
    for (const state of ['switched', 'abandoned'] as const) {
      expect(isTerminal(state)).toBe(true);
      expect(TRANSITIONS.filter(([from]) => from === state)).toEqual([]);
    }
  });

  it('every open state can be abandoned; only ready can become switched', () => {
    for (const state of MIGRATION_STATES.filter((s) => !isTerminal(s)))
      expect(canMove(state, 'abandoned')).toBe(true);
    expect(TRANSITIONS.filter(([, to]) => to === 'switched')).toEqual([['ready', 'switched']]);
  });

  it('a resumed run does what is left, repeating the preload until verified', () => {
    expect(remainingSteps('started')).toEqual(STEPS);
    expect(remainingSteps('backed_up')).toEqual(['create_target', 'preload', 'verify', 'ready']);
    expect(remainingSteps('target_created')).toEqual(['preload', 'verify', 'ready']);
    expect(remainingSteps('preloaded')).toEqual(['preload', 'verify', 'ready']);
    expect(remainingSteps('verified')).toEqual(['ready']);
    for (const done of ['ready', 'switched', 'abandoned'] as const) expect(remainingSteps(done)).toEqual([]);
  });
});
