import type { Logger } from '../log.ts';
import { backoffDelayMs, type RetryOptions, retryAfterMs, sleep } from './backoff.ts';
import type { PlatformError } from './errors.ts';
import {
  type AttemptOutcome,
  type AttemptRequest,
  type AttemptResponse,
  attempt,
  errorFromResponse,
  networkError,
} from './http-attempt.ts';
import type { RedisRateLimiter } from './rate-limiter.ts';
import type { TokenCache } from './token-cache.ts';

type QueryValue = string | number | boolean | null | undefined | ReadonlyArray<string | number>;
export type QueryParams = Readonly<Record<string, QueryValue>>;

export interface PlatformRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** A path under the base URL ('/accounting/accounts'), or a full URL taken from page.next. */
  path: string;
  query?: QueryParams;
  /** Sent as JSON. */
  body?: unknown;
}

export interface PlatformResponse {
  status: number;
  body: unknown;
  traceId: string | null;
  /** HTTP attempts this request took (each took one permit). */
  attempts: number;
}

export interface TransportOptions {
  baseUrl: URL;
  limiter: RedisRateLimiter;
  retry: RetryOptions;
  requestTimeoutMs: number;
  log: Logger;
  /** Aborted by close(): waiting and running attempts end. */
  signal: AbortSignal;
  /** Told about every attempt once it ends (metrics); must not throw or block. */
  observe?: (event: PlatformAttemptEvent) => void;
}

/**
 * One HTTP attempt, for an observer (metrics). `path` is relative to the base URL and carries
 * no query string; it still holds object ids, so an observer that labels by it must group them.
 */
export interface PlatformAttemptEvent {
  method: string;
  path: string;
  /** The HTTP status, or null when no response came (network error, timeout). */
  status: number | null;
  /** From sending the request to the end of its response body. */
  durationMs: number;
  /** Time spent waiting for a rate-limiter permit before this attempt. */
  waitMs: number;
}

/** Token renewals after 401 one request makes (F1: an expired token is renewed and the call repeated). */
const MAX_TOKEN_RENEWALS = 3;

/** 429 answers one request accepts before giving up (each one paused every caller first). */
const MAX_RATE_LIMITED = 20;

interface RunState {
  attempts: number;
  failures: number;
  rateLimited: number;
  /** Tokens renewed after a 401 so far (MAX_TOKEN_RENEWALS). */
  renewedTokens: number;
  /** The token the last 401 refused: a second refusal of that same token is final. */
  refusedToken: string | null;
  /** An earlier attempt may have reached the platform (its response was lost or was a 5xx). */
  maybeSent: boolean;
}

/** How an attempt is authorised: the bearer token, or the given header (the token call's Basic). */
type Credential = { kind: 'bearer'; tokens: TokenCache } | { kind: 'fixed'; authorization: string };

interface Prepared {
  method: string;
  url: URL;
  label: string;
  body?: string;
  contentType?: string;
}

/**
 * Every request to the platform goes through here: one permit per attempt (F3), retries of 5xx,
 * 429, 504 and network failures with backoff and the same body (docs/platform.md G8), and one token
 * renewal on a 401 (F1). Errors come out as PlatformError; the last one when retries run out.
 */
export class HttpTransport {
  constructor(private readonly options: TransportOptions) {}

  /** A JSON request authorised by the bearer token. */
  request(request: PlatformRequest, tokens: TokenCache): Promise<PlatformResponse> {
    const prepared: Prepared = { method: request.method, ...this.resolve(request.path, request.query) };
    // docs/platform.md F29: the live service answers a write with no body 400 DEVELOPER_7011, so
    // every write carries JSON, `{}` where it has nothing else to say.
    const body = request.body === undefined && request.method !== 'GET' ? {} : request.body;
    if (body !== undefined) {
      prepared.body = JSON.stringify(body);
      prepared.contentType = 'application/json';
    }
    return this.execute(prepared, { kind: 'bearer', tokens });
  }

  /** A form POST with a fixed Authorization header (the token call, F1). */
  postForm(path: string, form: URLSearchParams, authorization: string): Promise<PlatformResponse> {
    const prepared: Prepared = {
      method: 'POST',
      ...this.resolve(path, undefined),
      body: form.toString(),
      contentType: 'application/x-www-form-urlencoded',
    };
    return this.execute(prepared, { kind: 'fixed', authorization });
  }

  private async execute(prepared: Prepared, credential: Credential): Promise<PlatformResponse> {
    const run: RunState = {
      attempts: 0,
      failures: 0,
      rateLimited: 0,
      renewedTokens: 0,
      refusedToken: null,
      maybeSent: false,
    };
    // The token renewed after a 401 serves the repeat itself: a token without a lifetime
    // (docs/platform.md F40) would otherwise be renewed again, unused, by the next get().
    let renewed: string | null = null;
    for (;;) {
      // The token first: a permit is taken only right before its request leaves, because a
      // permit used late is what could crowd a later window (see RateLimiterOptions.lateAfterMs).
      const token = credential.kind === 'bearer' ? (renewed ?? (await credential.tokens.get())) : null;
      renewed = null;
      const waitStart = performance.now();
      const permit = await this.options.limiter.acquire();
      const sentAt = performance.now();
      run.attempts++;
      let outcome: AttemptOutcome;
      try {
        outcome = await attempt(this.attemptRequest(prepared, credential, token));
      } catch (error) {
        permit.unanswered();
        throw error;
      }
      // A 5xx may come from a gateway before the platform counted the request: it does not bound
      // the arrival, so the permit is given up like one that got no answer at all (dated now).
      if (outcome.kind === 'response' && outcome.response.status < 500) permit.answered(outcome.answeredAt);
      else permit.unanswered();
      this.notify(prepared, outcome, sentAt - waitStart, performance.now() - sentAt);
      if (outcome.kind === 'response') {
        const { response } = outcome;
        if (response.status >= 200 && response.status < 300) {
          return {
            status: response.status,
            body: response.body,
            traceId: response.traceId,
            attempts: run.attempts,
          };
        }
        // F1: an expired token (401 DEVELOPER_7028) is renewed once and the request repeated.
        // A renewed token that expired too before its repeat left (a short-lived one, docs/platform.md
        // F45, that waited for a permit) is renewed again, a few times at most; the same token refused
        // twice is not expiry but refusal.
        if (
          response.status === 401 &&
          credential.kind === 'bearer' &&
          token !== null &&
          token !== run.refusedToken &&
          run.renewedTokens < MAX_TOKEN_RENEWALS
        ) {
          run.renewedTokens++;
          run.refusedToken = token;
          renewed = await credential.tokens.replace(token);
          continue;
        }
      }
      const { error, waitMs } = await this.failureOf(prepared, outcome, run);
      const delayMs = this.delayBeforeRetry(error, waitMs, run);
      this.options.log.warn(
        {
          method: prepared.method,
          path: prepared.label,
          status: error.status,
          code: error.code,
          traceId: error.traceId,
          attempt: run.attempts,
          delayMs,
        },
        'platform request failed; retrying',
      );
      await sleep(delayMs, this.options.signal);
    }
  }

  /** An observer's failure is its own: it never changes what the request does. */
  private notify(prepared: Prepared, outcome: AttemptOutcome, waitMs: number, durationMs: number): void {
    const observe = this.options.observe;
    if (!observe) return;
    try {
      observe({
        method: prepared.method,
        path: relativePath(prepared.url, this.options.baseUrl),
        status: outcome.kind === 'response' ? outcome.response.status : null,
        durationMs,
        waitMs,
      });
    } catch (error) {
      this.options.log.warn({ err: error }, 'platform request observer failed');
    }
  }

  /** The error of a failed attempt; notes whether the platform may have acted on it. */
  private async failureOf(
    prepared: Prepared,
    outcome: AttemptOutcome,
    run: RunState,
  ): Promise<{ error: PlatformError; waitMs: number | null }> {
    if (outcome.kind === 'network') {
      run.maybeSent ||= outcome.maybeSent;
      return { error: networkError(prepared, outcome, run.maybeSent), waitMs: null };
    }
    const { response } = outcome;
    const error = errorFromResponse(prepared, response, run.maybeSent);
    // A 5xx (504 above all) may come after the platform acted; a 429 was never processed (F3).
    if (response.status >= 500) run.maybeSent = true;
    return { error, waitMs: await this.afterRateLimit(response) };
  }

  /**
   * How long to wait before the next attempt; throws the error when it is permanent or the
   * attempts are spent. A 429 is the platform pacing us, not a failure: it does not use up an
   * attempt (the shared pause already slows every caller), but a request gives up after many.
   */
  private delayBeforeRetry(error: PlatformError, waitMs: number | null, run: RunState): number {
    if (error.status === 429) run.rateLimited++;
    else run.failures++;
    const spent = run.failures >= this.options.retry.maxAttempts || run.rateLimited > MAX_RATE_LIMITED;
    if (!error.retryable || spent) throw error;
    return waitMs ?? backoffDelayMs(run.failures, this.options.retry);
  }

  /** F3: on 429, pause every process sharing the budget; the retry then waits in acquire(). */
  private async afterRateLimit(response: AttemptResponse): Promise<number | null> {
    if (response.status !== 429) return null;
    const { retry, limiter } = this.options;
    const pauseMs = retryAfterMs(response.retryAfter) ?? retry.baseMs;
    await limiter.pauseAfter429(pauseMs);
    // Jitter on top so the callers released together do not arrive together.
    return Math.round(Math.random() * Math.min(retry.baseMs, 250));
  }

  private attemptRequest(prepared: Prepared, credential: Credential, token: string | null): AttemptRequest {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (prepared.contentType) headers['content-type'] = prepared.contentType;
    headers.authorization = credential.kind === 'bearer' ? `Bearer ${token}` : credential.authorization;
    return {
      method: prepared.method,
      url: prepared.url,
      label: prepared.label,
      headers,
      body: prepared.body,
      timeoutMs: this.options.requestTimeoutMs,
      signal: this.options.signal,
    };
  }

  /**
   * F4: page.next is followed as given, but only on the platform's own origin: a bearer token
   * is never sent elsewhere. A next link on another origin is re-based onto ours.
   */
  private resolve(path: string, query: QueryParams | undefined): { url: URL; label: string } {
    const base = this.options.baseUrl;
    let url: URL;
    if (/^https?:\/\//i.test(path)) {
      url = new URL(path);
      if (url.origin !== base.origin) {
        this.options.log.warn(
          { origin: url.origin },
          'page link on another origin; re-based onto the base URL',
        );
        url = new URL(`${url.pathname}${url.search}`, base.origin);
      }
    } else {
      url = new URL(
        `${base.pathname.replace(/\/$/, '')}${path.startsWith('/') ? '' : '/'}${path}`,
        base.origin,
      );
    }
    appendQuery(url, query);
    return { url, label: `${url.pathname}${url.search}` };
  }
}

/** The URL's path under the base path ('/transactions/txn_1'), without its query. */
function relativePath(url: URL, base: URL): string {
  const prefix = base.pathname.replace(/\/$/, '');
  const path = url.pathname.startsWith(`${prefix}/`) ? url.pathname.slice(prefix.length) : url.pathname;
  return path || '/';
}

function appendQuery(url: URL, query: QueryParams | undefined): void {
  if (!query) return;
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const item of value) url.searchParams.append(name, String(item));
    else url.searchParams.set(name, String(value));
  }
}
