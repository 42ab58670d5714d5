import type { z } from 'zod';
import { issuesText } from '../../../../src/zod-issues.ts';
import { ApiError } from './errors.ts';

/**
 * Parses a request body or query with its zod schema; a failure is 422 DEVELOPER_7001 whose
 * additional_info names every bad or unknown field (docs/platform.md F2, F5) and, for batch
 * bodies, the index and remote id of every bad item.
 */
export function parseRequest<S extends z.ZodType>(schema: S, input: unknown, what = 'body'): z.infer<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  throw validationError(result.error, input, what);
}

interface FieldProblem {
  field: string;
  message: string;
}

export function validationError(error: z.ZodError, input: unknown, what: string): ApiError {
  const problems: FieldProblem[] = [];
  const unknown: string[] = [];
  for (const issue of error.issues) {
    const base = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const field = base ? `${base}.${key}` : key;
        unknown.push(field);
        problems.push({ field, message: 'unknown field' });
      }
    } else {
      problems.push({ field: base || what, message: issue.message });
    }
  }
  const items = batchItems(error, input);
  const fields = problems.map((p) => p.field);
  // The message is worded as the product words every schema failure (path and zod's message,
  // never the failing value); the structured `errors` beside it keep field and message apart,
  // which one line of text cannot, and name each unknown key on its own.
  const message =
    unknown.length > 0
      ? `Unknown field(s) in ${what}: ${unknown.join(', ')}`
      : `Invalid ${what}: ${issuesText(error, { limit: 5, root: what })}`;
  const info: Record<string, unknown> = { fields, errors: problems };
  if (unknown.length > 0) info.unknown_fields = unknown;
  if (items.length > 0) info.items = items;
  return new ApiError('DEVELOPER_7001', message, info);
}

/** For `{list: [...]}` bodies: the index (and remote id when present) of each failing item. */
function batchItems(error: z.ZodError, input: unknown): Array<{ index: number; id?: string; list: string }> {
  const seen = new Set<string>();
  const out: Array<{ index: number; id?: string; list: string }> = [];
  for (const issue of error.issues) {
    const [list, index] = issue.path;
    if (typeof list !== 'string' || typeof index !== 'number') continue;
    const key = `${list}.${index}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const item = (input as Record<string, unknown[]> | null)?.[list]?.[index] as { id?: unknown } | undefined;
    const entry: { index: number; id?: string; list: string } = { list, index };
    if (item && typeof item.id === 'string') entry.id = item.id;
    out.push(entry);
  }
  return out;
}
