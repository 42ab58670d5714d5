import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { issueLines, issuesText } from '../../src/zod-issues.ts';

const Item = z.object({ id: z.string(), name: z.string().min(1), code: z.string(), rate: z.number() });

function errorOf(schema: z.ZodType, value: unknown): z.ZodError {
  const parsed = schema.safeParse(value);
  if (parsed.success) throw new Error('expected a failure');
  return parsed.error;
}

describe('zod issues as text', () => {
  it('names each issue by its path, at most three by default, and counts the rest', () => {
    const error = errorOf(Item, { id: 1, name: '', code: 2, rate: 'x' });
    expect(issuesText(error)).toBe(
      'id: Invalid input: expected string, received number; name: Too small: expected string to have >=1 characters; code: Invalid input: expected string, received number; and 1 more',
    );
    expect(issueLines(error.issues, { limit: Number.POSITIVE_INFINITY })).toHaveLength(4);
  });

  it('calls an issue about the whole value by the root name the caller gives', () => {
    const error = errorOf(Item, 'not an object');
    expect(issuesText(error)).toBe('(root): Invalid input: expected object, received string');
    expect(issuesText(error, { root: '(item)' })).toBe(
      '(item): Invalid input: expected object, received string',
    );
  });

  it('joins nested paths with dots, array indexes included', () => {
    const error = errorOf(z.object({ lines: z.array(Item) }), { lines: [{ id: 'a', name: 'n', code: 'c' }] });
    expect(issuesText(error, { limit: 1 })).toBe(
      'lines.0.rate: Invalid input: expected number, received undefined',
    );
  });

  it('never repeats the value that failed (it may be a secret)', () => {
    const error = errorOf(z.object({ token: z.string().regex(/^svc_/) }), { token: 'hunter2-secret' });
    expect(issuesText(error)).not.toContain('hunter2');
  });
});
