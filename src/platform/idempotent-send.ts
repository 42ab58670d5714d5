import { IdempotencyConflictError, PlatformError } from './errors.ts';
import type { PlatformRequest, PlatformResponse } from './http-transport.ts';
import { bodyHash, type IdempotencyRecords } from './idempotency.ts';

/**
 * The result of a request carrying an idempotency key (docs/platform.md F15).
 * - `alreadyApplied: false`: the platform answered this call (a replay of the first answer
 *   counts; F15 says the effect happened once).
 * - `alreadyApplied: true`: the key was applied by an earlier send of the same body; `body` is
 *   the first answer when it was recorded, null when it was lost on the way.
 */
export type IdempotentResult =
  | { alreadyApplied: false; body: unknown; traceId: string | null }
  | { alreadyApplied: true; body: unknown | null; traceId: string | null };

const KEY_REUSED = 'DEVELOPER_7005';

/**
 * Sends `request` under `key`, remembering the body's hash first. A 7005 answer for a key this
 * client already sent with an identical body (before this call, or by an attempt of this call
 * whose response was lost) is "already applied"; for any other body it is a permanent conflict.
 */
export async function sendIdempotent(
  send: (request: PlatformRequest) => Promise<PlatformResponse>,
  records: IdempotencyRecords,
  key: string,
  request: PlatformRequest,
): Promise<IdempotentResult> {
  const hash = bodyHash(request.body);
  const before = await records.get(key);
  const sentBefore = before !== null && before.bodyHash === hash;
  if (sentBefore && before.response !== undefined) {
    return { alreadyApplied: true, body: before.response, traceId: null };
  }
  if (before === null) await records.remember(key, hash);
  try {
    const response = await send(request);
    if (before === null || sentBefore) await records.saveResponse(key, response.body);
    return { alreadyApplied: false, body: response.body, traceId: response.traceId };
  } catch (error) {
    if (!(error instanceof PlatformError) || error.code !== KEY_REUSED) throw error;
    if (sentBefore || (before === null && error.afterUncertainAttempt)) {
      const record = await records.get(key);
      return { alreadyApplied: true, body: record?.response ?? null, traceId: error.traceId };
    }
    throw new IdempotencyConflictError({
      status: error.status,
      code: error.code,
      message: `idempotency key ${key} was used with a different body: ${error.platformMessage}`,
      traceId: error.traceId,
      retryable: false,
      additionalInfo: error.additionalInfo,
      method: error.method ?? undefined,
      path: error.path ?? undefined,
    });
  }
}
