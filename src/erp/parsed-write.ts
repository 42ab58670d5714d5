import type { z } from 'zod';
import { ErpWrite } from './types.ts';

/**
 * Writes this process has already read with the ErpWrite schema. The sync layer reads every
 * write it plans (a bad one becomes that object's failure before anything is claimed), and each
 * adapter's postMany reads its items again (core/batch.ts) because an adapter also takes writes
 * from elsewhere. Reading twice cost about 5 % of the worker's CPU in the raw pipeline, so the
 * second read trusts a value the first one returned. Only zod's own output is marked, never the
 * value it was given; a write that crosses a process (the HTTP adapter) arrives as new objects,
 * unmarked, and is read again there. Nothing may change a marked write: none of its readers do.
 */
const parsed = new WeakSet<object>();

/** ErpWrite.safeParse, marking what it returns as read. */
export function parseErpWrite(value: unknown): z.ZodSafeParseResult<ErpWrite> {
  if (typeof value === 'object' && value !== null && parsed.has(value)) {
    return { success: true, data: value as ErpWrite };
  }
  const result = ErpWrite.safeParse(value);
  if (result.success) parsed.add(result.data);
  return result;
}
