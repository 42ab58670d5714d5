import { describe, expect, it } from 'vitest';
import { watchdogDelay } from '../../../../src/queue/index.ts';
import { pageObjectIds } from '../../../../src/sync/sync-button/adopting-platform.ts';
import { BUTTON_OBJECTS, deadlineOf, SYNC_WINDOW_MS } from '../../../../src/sync/sync-button/window.ts';

describe('sync-button window (docs/platform.md G29: 5 minutes)', () => {
  it('the deadline is 5 minutes from the event created_at', () => {
    const received = Date.parse('2025-01-06T10:00:02.000Z');
    expect(deadlineOf('2025-01-06T10:00:00.000Z', received).toISOString()).toBe('2025-01-06T10:05:00.000Z');
    expect(SYNC_WINDOW_MS).toBe(300_000);
  });

  it('a platform clock ahead of ours does not move the deadline past 5 minutes from arrival', () => {
    const received = Date.parse('2025-01-06T10:00:00.000Z');
    expect(deadlineOf('2025-01-06T10:09:00.000Z', received).toISOString()).toBe('2025-01-06T10:05:00.000Z');
    expect(deadlineOf('not a date', received).toISOString()).toBe('2025-01-06T10:05:00.000Z');
  });

  it('docs/platform.md G28: the button exists for transactions and reimbursements, each behind its flag', () => {
    expect(BUTTON_OBJECTS.TRANSACTION).toEqual({
      kind: 'transactions',
      syncType: 'TRANSACTION_SYNC',
      flag: 'transaction_sync_button_enabled',
    });
    expect(BUTTON_OBJECTS.REIMBURSEMENT.flag).toBe('reimbursement_sync_button_enabled');
  });

  it('ids of a page read, readable items or not', () => {
    const ids = pageObjectIds({
      items: [
        { ok: true, value: { id: 'a' } },
        { ok: false, id: 'b', error: 'bad amount' },
        { ok: false, id: null, error: 'no id' },
      ],
    });
    expect(ids).toEqual(['a', 'b']);
  });
});

describe('watchdog timing (docs/platform.md G29)', () => {
  it('runs the lead before the deadline; a late press gets half of what is left first', () => {
    const now = 1_000_000;
    expect(watchdogDelay(now + 300_000, now, 30_000)).toBe(270_000);
    expect(watchdogDelay(now + 40_000, now, 30_000)).toBe(20_000);
    expect(watchdogDelay(now - 5_000, now, 30_000)).toBe(0);
  });

  it('a long lead (tests) fires about a second after the press, whenever the press arrives', () => {
    const now = 1_000_000;
    expect(watchdogDelay(now + 300_000, now, 299_000)).toBe(1_000);
    expect(watchdogDelay(now + 40_000, now, 299_000)).toBe(1_000);
  });
});
