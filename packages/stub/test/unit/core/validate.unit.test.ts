import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError } from '../../../src/core/errors.ts';
import { parseRequest } from '../../../src/core/validate.ts';

const refusal = (schema: z.ZodType, input: unknown, what?: string): ApiError => {
  try {
    parseRequest(schema, input, what);
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('the input was accepted');
};

describe('a body that fails its schema is 422 DEVELOPER_7001 (docs/platform.md F2, F5)', () => {
  it('the message names each bad field and what is wrong with it, never the value sent', () => {
    const schema = z.strictObject({ code: z.number(), name: z.string().max(3) });
    const error = refusal(schema, { code: 'sk_live_do-not-echo', name: 'also-not-echoed' });
    expect(error.code).toBe('DEVELOPER_7001');
    expect(error.message).toMatch(/^Invalid body: code: .+; name: .+$/);
    expect(error.message).not.toContain('do-not-echo');
    expect(error.message).not.toContain('also-not-echoed');
    expect(error.additionalInfo.fields).toEqual(['code', 'name']);
  });

  it('names five issues and counts the rest; an issue with no path is named after what was parsed', () => {
    const six = z.strictObject(Object.fromEntries('abcdef'.split('').map((k) => [k, z.string()])));
    expect(refusal(six, {}).message).toMatch(/^Invalid body: a: .+; e: [^;]+; and 1 more$/);
    expect(refusal(z.string(), 7, 'query').message).toMatch(/^Invalid query: query: /);
  });

  it('unknown fields are named as such, on their own', () => {
    const error = refusal(z.strictObject({ a: z.string() }), { a: 'x', surprise: 1 });
    expect(error.message).toBe('Unknown field(s) in body: surprise');
    expect(error.additionalInfo.unknown_fields).toEqual(['surprise']);
  });
});
