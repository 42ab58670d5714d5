import { describe, expect, it } from 'vitest';
import { currentWindowShare } from '../../../../src/platform/index.ts';
import { dateKindsShare, sideBySide } from '../../../../src/sync/objects/side-by-side.ts';

describe('sync all side by side: the window shared between kinds (docs/platform.md F3, F28)', () => {
  it('F28: kinds read by date keep at least 0.1 while one-cursor kinds read, and more as each finishes', () => {
    expect(dateKindsShare(4)).toBe(0.1);
    expect(dateKindsShare(2)).toBe(0.1);
    expect(dateKindsShare(1)).toBeCloseTo(0.55);
    expect(dateKindsShare(0)).toBe(1);
  });

  it('F28: only the kinds read by date run within the share; results keep the kinds order', async () => {
    const seen: Record<string, boolean> = {};
    const results = await sideBySide(['transactions', 'reimbursements', 'bills'], async (kind) => {
      seen[kind] = currentWindowShare() !== undefined;
      return kind;
    });
    expect(seen).toEqual({ transactions: true, reimbursements: false, bills: false });
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : null))).toEqual([
      'transactions',
      'reimbursements',
      'bills',
    ]);
  });
});
