import type { ErpErrorInfo } from '../errors.ts';

/** What a check or a plan resolved, or the refusal a bookkeeper reads. */
export type Outcome<T> = { ok: true; value: T } | { ok: false; error: ErpErrorInfo };

export const ok = <T>(value: T): Outcome<T> => ({ ok: true, value });
export const fail = (error: ErpErrorInfo): Outcome<never> => ({ ok: false, error });
