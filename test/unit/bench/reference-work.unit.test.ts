import { describe, expect, it } from 'vitest';
import {
  measureReferenceWork,
  PAGES_PER_TRIAL,
  referenceChecksum,
  referencePage,
} from '../../../bench/lib/reference-work.ts';

describe('benchmark reference work', () => {
  // Runs on different machines are compared by this figure only while the work stays the same:
  // a change to the page or to the steps changes the checksum and fails here first.
  it('does the same work on every machine and in every run (fixed page, fixed checksum)', () => {
    const page = referencePage();
    expect(page).toBe(referencePage());
    expect(page.length).toBe(53_563);
    expect((JSON.parse(page) as { data: unknown[] }).data).toHaveLength(100);
    expect(PAGES_PER_TRIAL).toBe(400);
    expect(referenceChecksum()).toBe(1_304_502_592);
  });

  it('reports the median of its timed trials', () => {
    const work = measureReferenceWork(3, 2);
    expect(work.trialsMs).toHaveLength(3);
    expect(work.ms).toBe([...work.trialsMs].sort((a, b) => a - b)[1]);
    expect(work.ms).toBeGreaterThan(0);
  });
});
