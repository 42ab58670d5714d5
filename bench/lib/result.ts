import { type MachineStall, stallNote } from './stall-watch.ts';

/** What a scenario reports: figures, the targets they are judged by, and what limited them. */

export type Verdict = 'met' | 'missed' | 'not run' | 'error';

export interface TargetCheck {
  /** What is judged, e.g. "fastest/measured". */
  name: string;
  /** The target as text, e.g. ">= 0.95". */
  target: string;
  /** The figure as text, e.g. "0.97". */
  measured: string;
  /** null when it could not be judged (not run, error). */
  met: boolean | null;
  /**
   * True when the target holds at any scale (no 429s, nothing written twice): a quick run judges
   * it too. Other targets are set for the full run's counts, which a quick run does not reach.
   */
  anyScale?: boolean;
}

export interface ScenarioResult {
  /** "1", "2", ...; a variant of a scenario adds a letter ("1b"). */
  id: string;
  title: string;
  verdict: Verdict;
  /** One line of the main figures, for the table. */
  figures: string;
  targets: TargetCheck[];
  /** Every figure measured, for the JSON. */
  metrics: Record<string, unknown>;
  /** How it was run: counts, rate rule, slices, read-ahead, scale against the full size. */
  settings: Record<string, unknown>;
  /** Observations, and for a missed target the measured bottleneck. */
  notes: string[];
  /** For a missed target: the measured bottleneck in one line. */
  bottleneck?: string;
  durationMs: number;
}

export function verdictOf(targets: readonly TargetCheck[]): Verdict {
  if (targets.length === 0 || targets.some((t) => t.met === null)) return 'not run';
  return targets.every((t) => t.met) ? 'met' : 'missed';
}

export function check(
  name: string,
  target: string,
  measured: string,
  met: boolean,
  scale: { anyScale?: boolean } = {},
): TargetCheck {
  return { name, target, measured, met, ...scale };
}

export function notRun(id: string, title: string, reason: string, targets: string[]): ScenarioResult {
  return {
    id,
    title,
    verdict: 'not run',
    figures: `not run: ${reason}`,
    targets: targets.map((name) => ({ name, target: '', measured: 'not run', met: null })),
    metrics: {},
    settings: {},
    notes: [reason],
    durationMs: 0,
  };
}

export function failed(id: string, title: string, error: unknown, durationMs: number): ScenarioResult {
  const message = error instanceof Error ? error.message : String(error);
  return {
    id,
    title,
    verdict: 'error',
    figures: `error: ${message.split('\n')[0]}`,
    targets: [],
    metrics: {},
    settings: {},
    notes: [message],
    durationMs,
  };
}

/**
 * Records the pauses of the whole machine seen while the scenario ran (stall-watch.ts): in its
 * figures, in its notes, and, for a missed target, beside the bottleneck, since every figure of
 * the scenario includes them.
 */
export function withStalls(result: ScenarioResult, stalls: readonly MachineStall[]): ScenarioResult {
  result.metrics.machineStalls = stalls;
  const note = stallNote(stalls);
  if (!note) return result;
  result.notes.push(note);
  if (result.verdict === 'missed')
    result.bottleneck = result.bottleneck ? `${result.bottleneck}; ${note}` : note;
  return result;
}
