import { describe, expect, it } from 'vitest';
import { ageOf } from '../../../src/operations/format-status.ts';
import { isoTime, runOutcome } from '../../../src/operations/status-report.ts';

describe('status: last runs told as they went', () => {
  it('a run whose objects all failed is shown as failed, one with some failures says how many', () => {
    expect(runOutcome('succeeded', { read: 5, posted: 0, failed: 5 })).toBe('failed: all 5 objects failed');
    expect(runOutcome('succeeded', { read: 5, posted: 3, failed: 2 })).toBe('completed with 2 failed');
    expect(runOutcome('succeeded', { read: 5, posted: 5, failed: 0 })).toBe('succeeded');
    expect(runOutcome('running', {})).toBe('running');
    expect(runOutcome('failed', { failed: 0 })).toBe('failed');
  });

  it('times are ISO 8601 in UTC, with an age', () => {
    const at = new Date('2026-11-23T06:51:00Z');
    expect(isoTime(at)).toBe('2026-11-23T06:51:00.000Z');
    expect(isoTime('2026-11-23 06:51:00+00')).toBe('2026-11-23T06:51:00.000Z');
    const now = Date.parse('2026-11-23T07:00:00Z');
    expect(ageOf('2026-11-23T06:59:30Z', now)).toBe('30 s');
    expect(ageOf('2026-11-23T06:51:00Z', now)).toBe('9 min');
    expect(ageOf('2026-11-22T07:00:00Z', now)).toBe('24 h');
    expect(ageOf('2026-11-20T07:00:00Z', now)).toBe('3 d');
  });
});
