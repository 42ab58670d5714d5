import type { StubProcess } from './stub-process.ts';

export interface Mark {
  seq: number;
  at: number;
  object_type: string | null;
  object_id: string;
  sync_type: string;
  result: 'SYNCED' | 'FAILED' | 'REJECTED' | 'EXPIRED';
  sync_request_id: string | null;
}

/** Every sync mark the stub logged from sequence number `since` on (read in slices). */
export async function marksSince(stub: StubProcess, since: number): Promise<Mark[]> {
  const rows: Mark[] = [];
  let from = since;
  for (;;) {
    const page = await stub.control<{ marks: Mark[]; next: { marks_since: number } }>(
      'GET',
      `/__stub/effects?include=marks&marks_since=${from}&limit=100000`,
    );
    rows.push(...page.marks);
    if (page.marks.length === 0 || page.next.marks_since === from) return rows;
    from = page.next.marks_since;
  }
}

export interface PressOutcome {
  syncRequestId: string;
  /** When the webhook reached the receiver (null: it never did). */
  arrivedAt: number | null;
  /** When the last of its rows got a result (null: some never did). */
  lastResultAt: number | null;
  /** Rows with a SYNCED or FAILED mark; the rest expired or were never posted. */
  resolved: number;
  rows: number;
  /** From the webhook's arrival to each resolved row's result, ms. */
  rowLatencies: number[];
}

/**
 * For one press of the sync button: when its webhook arrived and when the last of its rows was
 * posted (SYNCED or FAILED), from the stub's marks, whichever run posted them.
 */
export function pressOutcome(
  press: { syncRequestId: string; objectIds: readonly string[] },
  arrivedAt: number | null,
  marks: readonly Mark[],
): PressOutcome {
  const wanted = new Set(press.objectIds);
  const resultAt = new Map<string, number>();
  for (const m of marks) {
    if (!wanted.has(m.object_id) || (m.result !== 'SYNCED' && m.result !== 'FAILED')) continue;
    if (!resultAt.has(m.object_id)) resultAt.set(m.object_id, m.at);
  }
  const times = [...resultAt.values()];
  const complete = resultAt.size === wanted.size;
  return {
    syncRequestId: press.syncRequestId,
    arrivedAt,
    lastResultAt: complete && times.length > 0 ? Math.max(...times) : null,
    resolved: resultAt.size,
    rows: wanted.size,
    rowLatencies: arrivedAt === null ? [] : times.map((t) => t - arrivedAt),
  };
}
