import { z } from 'zod';
import { issuesText } from '../zod-issues.ts';
import { UnexpectedResponseError } from './errors.ts';

/**
 * Responses are parsed with zod, tolerating extra fields. Items of a list are parsed one by one:
 * an object that does not parse becomes a failure value beside the others, so one odd object
 * never fails a page or an upload answer that has already taken effect.
 */
export type ItemResult<T> = { ok: true; value: T } | { ok: false; id: string | null; error: string };

function parseItem<T>(schema: z.ZodType<T>, raw: unknown, what: string): ItemResult<T> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return { ok: true, value: parsed.data };
  const id = idOf(raw);
  return {
    ok: false,
    id,
    error: `${what}${id ? ` ${id}` : ''} did not parse: ${issuesText(parsed.error, { limit: 5 })}`,
  };
}

export function parseItems<T>(schema: z.ZodType<T>, raw: readonly unknown[], what: string): ItemResult<T>[] {
  return raw.map((item) => parseItem(schema, item, what));
}

/** Parses a whole answer; a body of the wrong shape is an UnexpectedResponseError. */
export function parseBody<T>(schema: z.ZodType<T>, body: unknown, what: string, traceId: string | null): T {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  throw new UnexpectedResponseError({
    status: null,
    code: null,
    message: `${what}: unexpected answer: ${issuesText(parsed.error, { limit: 5 })}`,
    traceId,
    retryable: false,
  });
}

/** The values of the successful items. */
export function okValues<T>(results: readonly ItemResult<T>[]): T[] {
  const values: T[] = [];
  for (const result of results) if (result.ok) values.push(result.value);
  return values;
}

/** An envelope whose list items are parsed one by one: `{[key]: unknown[]}` plus other fields. */
export function envelopeOf<K extends string>(key: K) {
  return z.looseObject({ [key]: z.array(z.unknown()) } as { [P in K]: z.ZodArray<z.ZodUnknown> });
}

/**
 * An upload answer (docs/platform.md F41): the list under `key` may be absent or null, since both
 * published copies make it optional (`{uploaded: [ids]}` or `{}` is a whole answer); read as empty.
 */
export function uploadAnswerOf<K extends string>(key: K) {
  return z.looseObject({ [key]: z.array(z.unknown()).nullish() } as {
    [P in K]: z.ZodOptional<z.ZodNullable<z.ZodArray<z.ZodUnknown>>>;
  });
}

function idOf(raw: unknown): string | null {
  if (!raw || typeof raw !== 'object') return null;
  const id = (raw as { id?: unknown }).id;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : null;
}
