import { describe, expect, it } from 'vitest';
import { pollDelay } from '../../../../src/sync/reporting/batch-lease.ts';

describe('waiting for a result batch another sender holds (batch-lease.ts)', () => {
  it('looks again soon at first: a holder is most often one post and one acknowledgement from done', () => {
    expect(pollDelay(0, 500)).toBe(20);
    expect(pollDelay(5, 500)).toBe(20);
  });

  it('then waits as long again as it has waited, so a long wait costs few looks', () => {
    expect(pollDelay(20, 500)).toBe(20);
    expect(pollDelay(60, 500)).toBe(60);
    expect(pollDelay(300, 500)).toBe(300);
  });

  it('never waits longer than pollMs between looks, nor less than 1 ms', () => {
    expect(pollDelay(2_000, 500)).toBe(500);
    expect(pollDelay(59_000, 500)).toBe(500);
    expect(pollDelay(0, 10)).toBe(10);
    expect(pollDelay(0, 0)).toBe(1);
  });
});
