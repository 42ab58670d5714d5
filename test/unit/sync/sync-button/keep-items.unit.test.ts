import { describe, expect, it } from 'vitest';
import { keepItems } from '../../../../src/sync/sync-button/adopting-platform.ts';

describe('a sync-button run keeps its own rows of the requested read', () => {
  it('drops the rows of other requests and the pages they leave empty; unreadable rows with an id stay', () => {
    const pages = [
      {
        items: [
          { ok: true as const, value: { id: 'a1' } },
          { ok: true as const, value: { id: 'b1' } },
        ],
        more: true,
      },
      { items: [{ ok: true as const, value: { id: 'b2' } }], more: true },
      {
        items: [
          { ok: false as const, id: 'a2', error: 'bad amount' },
          { ok: false as const, id: null, error: 'no id' },
        ],
        more: false,
      },
    ];
    expect(keepItems(pages, new Set(['a1', 'a2']))).toEqual([
      { items: [{ ok: true, value: { id: 'a1' } }], more: true },
      { items: [{ ok: false, id: 'a2', error: 'bad amount' }], more: false },
    ]);
    expect(keepItems(pages, new Set())).toEqual([]);
  });
});
