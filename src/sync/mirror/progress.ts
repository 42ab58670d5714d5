import { progressCounts } from './summary.ts';
import type { KindSummary, MirrorKind, MirrorProgress } from './types.ts';

/**
 * Reports progress at most every `intervalMs` (a job's updateProgress is a Redis round trip;
 * 20,000 lifecycle calls must not cost 20,000 of them), and always at a phase's end.
 */
export class ProgressReporter {
  private last = 0;

  constructor(
    private readonly sink: ((progress: MirrorProgress) => void) | undefined,
    private readonly state: () => { kinds: Record<MirrorKind, KindSummary>; writeCalls: number },
    private readonly intervalMs = 250,
  ) {}

  report(kind: MirrorKind, phase: MirrorProgress['phase'], done: number, total: number, force = false): void {
    if (!this.sink) return;
    const now = Date.now();
    if (!force && now - this.last < this.intervalMs) return;
    this.last = now;
    const { kinds, writeCalls } = this.state();
    try {
      this.sink({ kind, phase, done, total, writeCalls, kinds: progressCounts(kinds) });
    } catch {
      // A failing progress callback must not fail the mirror.
    }
  }
}
