import { describe, expect, it } from 'vitest';
import { failureLines } from '../../../src/commands/demo-summary.ts';

/** The counts in front of each listed reason ("    24 × ..."). */
const listed = (lines: string[]) => lines.slice(1).map((l) => Number(/^\s+(\d+) × /.exec(l)![1]));

describe('demo failure lines', () => {
  it('the counts listed add up to the failures in the heading, the rare reasons on one line', () => {
    const reasons = [
      { message: 'Bill … has no accounting vendor', n: 24 },
      { message: 'The bill … that this payment pays is not in the ledger', n: 19 },
      { message: 'Line 1 of this card transaction has no GL account', n: 8 },
      { message: 'The GL account with id … on the line is not in the ledger', n: 6 },
      { message: 'The reimbursement has no GL account', n: 1 },
      { message: 'The period is closed', n: 1 },
    ];
    const lines = failureLines({ total: 59, reasons });
    expect(lines[0]).toContain('59 results reported as failed, on purpose');
    expect(lines).toHaveLength(6);
    expect(lines.at(-1)).toBe('     2 × 2 other reasons (every one: demo --json)');
    expect(listed(lines).reduce((a, b) => a + b, 0)).toBe(59);
  });

  it('four reasons or fewer are all named; no failures, no lines', () => {
    const lines = failureLines({
      total: 3,
      reasons: [
        { message: 'a', n: 2 },
        { message: 'b', n: 1 },
      ],
    });
    expect(listed(lines)).toEqual([2, 1]);
    expect(failureLines({ total: 0, reasons: [] })).toEqual([]);
  });
});
