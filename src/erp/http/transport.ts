import { closingController } from '../../closing-controller.ts';
import type { Logger } from '../../log.ts';
import {
  attempt,
  backoffDelayMs,
  isRetryableStatus,
  type RetryOptions,
  retryAfterMs,
  sleep,
} from '../../platform/index.ts';
import { scrubString } from '../../secrets.ts';
import { type ErpErrorInfo, integratorReference, needsIntegrator, transient } from '../errors.ts';
import { authHeaders, type HttpErpCredentials } from './auth.ts';

/**
 * One call to the ERP service with the platform client's discipline (src/platform): a deadline per
 * attempt, and retries with backoff on network errors, 5xx and 429. Every call of the contract is
 * idempotent by design (writes are keyed by (kind, objectId)), so a retry after a timeout can
 * never write twice. The outcome is a value: the answer's JSON, or the ErpErrorInfo to report.
 */

export interface TransportOptions extends HttpErpCredentials {
  /** The service's base URL; paths of the contract are appended to it. */
  url: string;
  timeoutMs: number;
  retry: RetryOptions;
  log: Logger;
}

export type CallOutcome = { ok: true; body: unknown } | { ok: false; error: ErpErrorInfo };

export const DEFAULT_HTTP_ERP_RETRY: RetryOptions = { maxAttempts: 4, baseMs: 500, capMs: 8_000 };

export class HttpErpTransport {
  /** Every call in flight listens to this signal (its attempt's deadline, its backoff sleep). */
  private readonly closing = closingController();

  constructor(private readonly options: TransportOptions) {}

  async call(method: 'GET' | 'POST', path: string, payload?: unknown): Promise<CallOutcome> {
    const { url, timeoutMs, retry, log } = this.options;
    const label = `${method} ${path.split('?')[0]}`;
    const body = payload === undefined ? '' : JSON.stringify(payload);
    let last = '';
    for (let n = 1; n <= retry.maxAttempts; n++) {
      const outcome = await attempt({
        method,
        url: new URL(`${url.replace(/\/+$/, '')}${path}`),
        label,
        // Signed per attempt: a retry after backoff carries a fresh time.
        headers: {
          accept: 'application/json',
          ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
          ...authHeaders(this.options, body),
        },
        ...(payload === undefined ? {} : { body }),
        timeoutMs,
        signal: this.closing.signal,
      });
      let waitMs: number | null = null;
      if (outcome.kind === 'network') {
        last = outcome.reason;
      } else {
        const { status } = outcome.response;
        if (status >= 200 && status < 300) return { ok: true, body: outcome.response.body };
        if (!isRetryableStatus(status))
          return { ok: false, error: refused(label, status, outcome.response.body) };
        last = `HTTP ${status}`;
        waitMs = retryAfterMs(outcome.response.retryAfter);
      }
      if (n === retry.maxAttempts) break;
      const delay = Math.min(retry.capMs, waitMs ?? backoffDelayMs(n, retry));
      log.warn(
        { erp: 'http', call: label, attempt: n, reason: last, retryInMs: delay },
        'ERP service call failed; retrying',
      );
      await sleep(delay, this.closing.signal);
    }
    return {
      ok: false,
      error: transient(
        'ERP_UNAVAILABLE',
        'The ERP service did not answer',
        `${label}: ${last} after ${retry.maxAttempts} attempts`,
      ),
    };
  }

  close(): void {
    this.closing.abort(new Error('the HTTP ERP adapter was closed'));
  }
}

/** A 4xx other than 429: the same request fails the same way, so it is the integrator's. */
function refused(label: string, status: number, body: unknown): ErpErrorInfo {
  const said = (body as { error?: { message?: unknown } } | null)?.error?.message;
  const reason = typeof said === 'string' ? `: ${scrubString(said).slice(0, 200)}` : '';
  const auth = status === 401 || status === 403;
  const title = auth
    ? 'The ERP service refused ledgersync’s credentials (ERP_HTTP_TOKEN or ERP_HTTP_HMAC_SECRET)'
    : 'The ERP service refused the request';
  const detail = `${label} answered HTTP ${status}${reason}`;
  return needsIntegrator(
    auth ? 'ERP_AUTH_REFUSED' : 'ERP_REQUEST_REFUSED',
    title,
    detail,
    integratorReference('http', label, String(status)),
  );
}

/** An answer that is not the contract's: the integrator's to fix in the service. */
export function malformed(label: string, issues: string): ErpErrorInfo {
  return needsIntegrator(
    'ERP_BAD_ANSWER',
    'The ERP service answered with something that is not the contract’s',
    `${label}: ${issues}`,
    integratorReference('bad-answer', label, issues),
  );
}
