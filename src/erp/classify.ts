import { ErpError, type ErpErrorInfo, integratorReference, needsIntegrator, transient } from './errors.ts';

/**
 * Sorts an unexpected throwable into the taxonomy: transient when retrying can help (network,
 * the database restarting, lock and serialization conflicts, timeouts), else needs_integrator
 * with a reference derived from what failed.
 */

/** Network and client codes (Node sockets, postgres.js connection states). */
const TRANSIENT_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
]);

/** SQLSTATEs worth a retry: whole classes by prefix, or exact codes. */
const TRANSIENT_SQLSTATE_CLASSES = ['08', '53', '57P'];
const TRANSIENT_SQLSTATES = new Set(['40001', '40P01', '55P03', '57014']);

export function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

export function isTransient(error: unknown): boolean {
  if (error instanceof ErpError) return error.category === 'transient';
  const code = errorCode(error);
  if (!code) return false;
  if (TRANSIENT_CODES.has(code) || TRANSIENT_SQLSTATES.has(code)) return true;
  return /^[0-9A-Z]{5}$/.test(code) && TRANSIENT_SQLSTATE_CLASSES.some((p) => code.startsWith(p));
}

/** `what` names the object in bookkeeper words ("card transaction txn_123"). */
export function classifyThrown(error: unknown, what: string, ...referenceParts: string[]): ErpErrorInfo {
  if (error instanceof ErpError) return error.info;
  const message = error instanceof Error ? error.message : String(error);
  if (isTransient(error)) {
    return transient(
      'ERP_UNAVAILABLE',
      `The ERP could not record the ${what} just now`,
      'the ERP did not answer',
    );
  }
  const reference = integratorReference(...referenceParts, errorCode(error) ?? '', message);
  // The raw answer is for the integrator (the caller logs it under the reference), not the bookkeeper.
  return needsIntegrator(
    'ERP_UNEXPECTED',
    `The ERP refused the ${what} unexpectedly`,
    "The ERP's answer is in the worker log",
    reference,
  );
}
