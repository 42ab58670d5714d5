import { createHash } from 'node:crypto';
import { z } from 'zod';
import { type PagingFault, pagingFaultText } from '../page-guard.ts';

/**
 * The ERP error taxonomy, one per failure category of docs/platform.md G27:
 *
 * - `user_actionable`: the bookkeeper can fix it in the ERP or in the coding (title + fix);
 *   retrying without a change fails the same way.
 * - `transient`: the ERP could not answer now (title + "retry later"); the same call may succeed.
 * - `needs_integrator`: a fault of the integration or the ERP setup (title + reference id the
 *   bookkeeper quotes to the integrator; the details are logged under the same id).
 *
 * `code` is stable and machine-readable (tests and metrics key on it); `title`, `fix` and
 * `detail` are written for a bookkeeper; `message` is the one-line text for the platform's
 * `failed_syncs[].error.message`, prefixed with the category so it reads right in the
 * Accounting tab.
 */

export const ErrorCategory = z.enum(['user_actionable', 'transient', 'needs_integrator']);
export type ErrorCategory = z.infer<typeof ErrorCategory>;

export const ErpErrorInfo = z.strictObject({
  category: ErrorCategory,
  code: z.string().regex(/^[A-Z][A-Z0-9_]*$/),
  title: z.string().min(1),
  /** user_actionable: what the bookkeeper changes before syncing again. */
  fix: z.string().min(1).optional(),
  /** transient and needs_integrator: what happened, in plain words. */
  detail: z.string().optional(),
  /** needs_integrator: quoted to the integrator; the log line carries the same id. */
  referenceId: z.string().min(1).optional(),
  message: z.string().min(1),
});
export type ErpErrorInfo = z.infer<typeof ErpErrorInfo>;

const PREFIX: Record<ErrorCategory, string> = {
  user_actionable: 'Action needed',
  transient: 'Temporary problem',
  needs_integrator: 'Contact your integrator',
};

/** Capitalised, with a full stop: parts are written as clauses and joined as sentences. */
function sentence(text: string): string {
  const trimmed = text.trim();
  const capital = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

/** The one-line text shown to the bookkeeper, built from the parts. */
function bookkeeperMessage(info: Omit<ErpErrorInfo, 'message'>): string {
  const parts = [`${PREFIX[info.category]}: ${sentence(info.title)}`];
  if (info.category === 'user_actionable' && info.fix) parts.push(`Fix: ${sentence(info.fix)}`);
  if (info.category === 'transient') {
    if (info.detail) parts.push(sentence(info.detail));
    parts.push('It will be retried automatically; you can also sync again later.');
  }
  if (info.category === 'needs_integrator') {
    if (info.detail) parts.push(sentence(info.detail));
    parts.push(`Give your integrator the reference ${info.referenceId ?? 'shown in the worker log'}.`);
  }
  return parts.join(' ');
}

export function userActionable(code: string, title: string, fix: string): ErpErrorInfo {
  const info = { category: 'user_actionable' as const, code, title, fix };
  return { ...info, message: bookkeeperMessage(info) };
}

export function transient(code: string, title: string, detail?: string): ErpErrorInfo {
  const info = { category: 'transient' as const, code, title, ...(detail ? { detail } : {}) };
  return { ...info, message: bookkeeperMessage(info) };
}

/**
 * A reference id derived from what failed (never random), so the same fault on the same object
 * gets the same reference on every retry and the log lines group under it.
 */
export function integratorReference(...parts: string[]): string {
  return `ERP-${createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 12).toUpperCase()}`;
}

export function needsIntegrator(
  code: string,
  title: string,
  detail: string,
  referenceId: string,
): ErpErrorInfo {
  const info = { category: 'needs_integrator' as const, code, title, detail, referenceId };
  return { ...info, message: bookkeeperMessage(info) };
}

/**
 * The one error class adapters throw where a value cannot be returned (chart-of-accounts
 * streams, setup). Write methods never throw it: they return `{ ok: false, error }`.
 */
export class ErpError extends Error {
  readonly info: ErpErrorInfo;

  constructor(info: ErpErrorInfo, options?: { cause?: unknown }) {
    super(info.message, options);
    this.name = 'ErpError';
    this.info = info;
  }

  get category(): ErrorCategory {
    return this.info.category;
  }
  get code(): string {
    return this.info.code;
  }
  get title(): string {
    return this.info.title;
  }
  get fix(): string | undefined {
    return this.info.fix;
  }
  get detail(): string | undefined {
    return this.info.detail;
  }
  get referenceId(): string | undefined {
    return this.info.referenceId;
  }
}

/**
 * A chart stream whose cursor does not move on (src/page-guard.ts): ended instead of followed
 * for ever. The chart mirror stops on it alone (`sync coa`: exit 4, README "Exit codes").
 */
export class ErpPagingError extends ErpError {
  constructor(route: string, what: string, fault: PagingFault) {
    super(
      needsIntegrator(
        'ERP_PAGING',
        'The ERP service’s chart stream does not end',
        `${route} (${what}): ${pagingFaultText(fault)}`,
        integratorReference('paging', route, fault.rule),
      ),
    );
    this.name = 'ErpPagingError';
  }
}
