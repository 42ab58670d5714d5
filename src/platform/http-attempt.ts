import { scrubString } from '../secrets.ts';
import { isRetryableStatus } from './backoff.ts';
import { NetworkError, type PlatformError, platformErrorFor } from './errors.ts';
import { ErrorBody, TRACE_ID_HEADER } from './schemas/common.ts';

/** One HTTP attempt as sent: everything but the permit and the retry loop. */
export interface AttemptRequest {
  method: string;
  url: URL;
  /** Path and query for messages and logs (never the origin's credentials or headers). */
  label: string;
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
  /** Aborts the attempt when the client closes. */
  signal: AbortSignal;
}

export interface AttemptResponse {
  status: number;
  /** Parsed JSON; null for an empty body; the raw text when the body is not JSON. */
  body: unknown;
  traceId: string | null;
  retryAfter: string | null;
}

/** Outcome of one attempt: a response, or no response (and whether the request may have left). */
export type AttemptOutcome =
  /**
   * answeredAt: performance.now() when the answer's head arrived. The platform counted the
   * request (F3) before it answered, so this bounds when it arrived (rate-limiter.ts).
   */
  | { kind: 'response'; response: AttemptResponse; answeredAt: number }
  | { kind: 'network'; reason: string; cause: string; maybeSent: boolean };

/** Error codes of a connection that never carried the request: retrying cannot double an effect. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * One signal that aborts when the caller's does or when `timeoutMs` passes. A plain timer held
 * until `clear()`: on Node 20 `AbortSignal.timeout()` inside `AbortSignal.any()` can be collected
 * before it fires, and a request that never answers then hangs for good.
 */
function deadlineSignal(parent: AbortSignal, timeoutMs: number): { signal: AbortSignal; clear(): void } {
  const controller = new AbortController();
  const onAbort = () => controller.abort(parent.reason);
  if (parent.aborted) onAbort();
  else parent.addEventListener('abort', onAbort, { once: true });
  const timer = setTimeout(() => {
    const reason = new Error(`no response within ${timeoutMs} ms`);
    reason.name = 'TimeoutError';
    controller.abort(reason);
  }, timeoutMs);
  return {
    signal: controller.signal,
    clear() {
      clearTimeout(timer);
      parent.removeEventListener('abort', onAbort);
    },
  };
}

export async function attempt(request: AttemptRequest): Promise<AttemptOutcome> {
  const deadline = deadlineSignal(request.signal, request.timeoutMs);
  const { signal } = deadline;
  try {
    const res = await fetch(request.url, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      signal,
      redirect: 'manual',
    });
    const answeredAt = performance.now();
    const text = await res.text();
    return {
      kind: 'response',
      answeredAt,
      response: {
        status: res.status,
        body: parseJson(text),
        traceId: res.headers.get(TRACE_ID_HEADER),
        retryAfter: res.headers.get('retry-after'),
      },
    };
  } catch (error) {
    if (request.signal.aborted) throw request.signal.reason;
    const code = errorCode(error);
    const timedOut =
      (error instanceof Error && error.name === 'TimeoutError') ||
      (signal.aborted && (signal.reason as Error | undefined)?.name === 'TimeoutError');
    return {
      kind: 'network',
      reason: timedOut ? `no response within ${request.timeoutMs} ms` : `network error ${code ?? ''}`.trim(),
      cause: errorSummary(error),
      maybeSent: timedOut || !NOT_SENT_CODES.has(code ?? ''),
    };
  } finally {
    deadline.clear();
  }
}

/** The NetworkError for an attempt that got no response. */
export function networkError(
  request: Pick<AttemptRequest, 'method' | 'label'>,
  outcome: Extract<AttemptOutcome, { kind: 'network' }>,
  afterUncertainAttempt: boolean,
): NetworkError {
  return new NetworkError({
    status: null,
    code: null,
    message: outcome.reason,
    traceId: null,
    retryable: true,
    method: request.method,
    path: request.label,
    afterUncertainAttempt,
    cause: outcome.cause,
  });
}

/** The PlatformError for a non-2xx answer (F2 body when present, else the status alone). */
export function errorFromResponse(
  request: Pick<AttemptRequest, 'method' | 'label'>,
  response: AttemptResponse,
  afterUncertainAttempt: boolean,
): PlatformError {
  const parsed = ErrorBody.safeParse(response.body);
  const detail = parsed.success ? parsed.data.error_v2 : null;
  return platformErrorFor({
    status: response.status,
    code: detail?.error_code ?? null,
    message: detail?.message ?? fallbackMessage(response),
    traceId: response.traceId,
    retryable: isRetryableStatus(response.status),
    additionalInfo: detail?.additional_info ?? null,
    method: request.method,
    path: request.label,
    afterUncertainAttempt,
  });
}

function fallbackMessage(response: AttemptResponse): string {
  if (response.body === null) return `HTTP ${response.status}`;
  const text = typeof response.body === 'string' ? response.body : JSON.stringify(response.body);
  return `HTTP ${response.status}: ${scrubString(text).slice(0, 200)}`;
}

function parseJson(text: string): unknown {
  if (text.length === 0) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** undici wraps the socket error: fetch failed { cause: { code: 'ECONNRESET' } }. */
function errorCode(error: unknown): string | null {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}

/** A plain, scrubbed description of the cause, so no request object rides along on the error. */
function errorSummary(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    parts.push(`${current.name}: ${current.message}`);
    current = current.cause;
  }
  return scrubString(parts.join(' <- ') || String(error));
}
