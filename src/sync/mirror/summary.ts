import type { Change } from './diff.ts';
import { type KindSummary, MIRROR_KINDS, type MirrorKind, type MirrorSummary } from './types.ts';

function emptyKindSummary(): KindSummary {
  return {
    created: 0,
    updated: 0,
    deactivated: 0,
    reactivated: 0,
    hidden: 0,
    unhidden: 0,
    adopted: 0,
    unchanged: 0,
    failed: [],
  };
}

export function emptySummary(connectionId: string, dryRun: boolean): MirrorSummary {
  const kinds = Object.fromEntries(MIRROR_KINDS.map((k) => [k, emptyKindSummary()])) as Record<
    MirrorKind,
    KindSummary
  >;
  return { connectionId, dryRun, busy: false, kinds, writeCalls: 0, readCalls: 0, durationMs: 0 };
}

/**
 * Counts what one PATCH did: its content (updated, unless it only completes a creation),
 * reactivation and visibility. One call may count in several columns.
 */
export function countChange(summary: KindSummary, change: Change, afterCreate = false): void {
  if (change.content && !afterCreate) summary.updated++;
  if (change.reactivate) summary.reactivated++;
  if (change.visibility === 'HIDDEN') summary.hidden++;
  if (change.visibility === 'VISIBLE') summary.unhidden++;
}

/** A copy safe to hand to a progress callback (failures by count only, to keep it small). */
export function progressCounts(kinds: Record<MirrorKind, KindSummary>): Record<MirrorKind, KindSummary> {
  return Object.fromEntries(
    Object.entries(kinds).map(([k, s]) => [k, { ...s, failed: s.failed.slice(0, 20) }]),
  ) as Record<MirrorKind, KindSummary>;
}
