/**
 * Retry timing (docs/platform.md G8): retry 5xx, 429, 504 and network failures with exponential
 * backoff and jitter, never immediately; every other 4xx is permanent.
 */
export interface RetryOptions {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  /** Delay before the first retry (docs/platform.md G8: 1 s); doubles each retry. */
  baseMs: number;
  /** Largest delay between two attempts. */
  capMs: number;
}

export const DEFAULT_RETRY: RetryOptions = { maxAttempts: 6, baseMs: 1_000, capMs: 30_000 };

/**
 * Delay before retry number `retry` (1 = the first retry): base * 2^(retry-1), capped, with
 * "equal jitter" (half fixed, half random) so retries spread out but never come at once.
 */
export function backoffDelayMs(
  retry: number,
  options: RetryOptions,
  random: () => number = Math.random,
): number {
  const exponential = Math.min(options.capMs, options.baseMs * 2 ** Math.max(0, retry - 1));
  return Math.round(exponential / 2 + random() * (exponential / 2));
}

/** docs/platform.md G8: 5xx (504 included) and 429 are worth another attempt. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

/**
 * Retry-After as milliseconds: whole seconds (F3) or an HTTP date; null when absent or unreadable.
 */
export function retryAfterMs(header: string | null, now: number = Date.now()): number | null {
  if (header === null || header.trim() === '') return null;
  const seconds = Number(header.trim());
  if (Number.isFinite(seconds)) return Math.max(0, Math.round(seconds * 1000));
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** Resolves after ms, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(
      () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      },
      Math.max(0, ms),
    );
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
