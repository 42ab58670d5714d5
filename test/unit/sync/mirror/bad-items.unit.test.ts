import { describe, expect, it } from 'vitest';
import { itemIndexOf, namedBadItems } from '../../../../src/sync/mirror/bad-items.ts';

const ids = ['a', 'b', 'c', 'd'];

describe('namedBadItems: which items a 422 names (docs/platform.md F2)', () => {
  it('reads items[] by id, with the per-item reason', () => {
    const naming = namedBadItems(
      { items: [{ index: 9, id: 'c', reason: 'rejected by the platform' }] },
      ids,
      'options',
    );
    expect(naming).toEqual({ kind: 'items', bad: new Map([[2, 'rejected by the platform']]) });
  });

  it('reads items[] by index when the id is absent', () => {
    expect(namedBadItems({ items: [{ index: 1 }] }, ids, 'options')).toEqual({
      kind: 'items',
      bad: new Map([[1, null]]),
    });
  });

  it('reads field paths into the batch list', () => {
    const naming = namedBadItems(
      { fields: ['options.3.value'], errors: [{ field: 'options.3.value', message: 'Too small' }] },
      ids,
      'options',
    );
    expect(naming).toEqual({ kind: 'items', bad: new Map([[3, 'Too small']]) });
  });

  it('reads remote id lists', () => {
    expect(namedBadItems({ invalid_ids: ['d', 'zz'] }, ids, 'options')).toEqual({
      kind: 'items',
      bad: new Map([[3, null]]),
    });
  });

  it('says "request" when only request-level fields are named (halving would not help)', () => {
    expect(namedBadItems({ fields: ['field_id'] }, ids, 'options')).toEqual({ kind: 'request' });
  });

  it('says "unknown" when nothing is named', () => {
    expect(namedBadItems({}, ids, 'options')).toEqual({ kind: 'unknown' });
    expect(namedBadItems(null, ids, 'options')).toEqual({ kind: 'unknown' });
  });

  it('ignores indexes outside the batch and other lists', () => {
    expect(
      namedBadItems({ items: [{ index: 40 }, { index: 1, list: 'gl_accounts' }] }, ids, 'options'),
    ).toEqual({
      kind: 'unknown',
    });
  });

  it('parses dotted and bracketed paths', () => {
    expect(itemIndexOf('gl_accounts.12.name', 'gl_accounts')).toBe(12);
    expect(itemIndexOf('gl_accounts[7]', 'gl_accounts')).toBe(7);
    expect(itemIndexOf('gl_accounts_x.1', 'gl_accounts')).toBeNull();
  });
});

describe("namedBadItems: the client's own request check", () => {
  it('reads issues[].path', () => {
    const naming = namedBadItems(
      { issues: [{ path: 'options.2.value', message: 'Too small' }] },
      ids,
      'options',
    );
    expect(naming).toEqual({ kind: 'items', bad: new Map([[2, 'Too small']]) });
  });
});
