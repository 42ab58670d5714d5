import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { UnexpectedResponseError } from '../../../src/platform/errors.ts';
import { okValues, parseBody, parseItems } from '../../../src/platform/parse.ts';

const Item = z.object({ id: z.string(), amount: z.number() });

describe('response parsing', () => {
  it('tolerates extra fields', () => {
    const [result] = parseItems(Item, [{ id: 'a', amount: 1, extra: true }], 'transaction');
    expect(result).toEqual({ ok: true, value: { id: 'a', amount: 1 } });
  });

  it('returns an item that does not parse as a failure beside the others', () => {
    const results = parseItems(Item, [{ id: 'a', amount: 1 }, { id: 'b', amount: 'NaN' }, 7], 'transaction');
    expect(results[0]!.ok).toBe(true);
    expect(results[1]).toMatchObject({ ok: false, id: 'b' });
    expect(results[1]!.ok === false && results[1]!.error).toMatch(/^transaction b did not parse: amount: /);
    expect(results[2]).toMatchObject({ ok: false, id: null });
    expect(okValues(results)).toEqual([{ id: 'a', amount: 1 }]);
  });

  it('a whole answer of the wrong shape is an UnexpectedResponseError naming the trace id', () => {
    expect(() => parseBody(Item, { id: 1 }, 'GET /x', 'tr-9')).toThrow(UnexpectedResponseError);
    expect(() => parseBody(Item, { id: 1 }, 'GET /x', 'tr-9')).toThrow(/tr-9/);
  });
});
