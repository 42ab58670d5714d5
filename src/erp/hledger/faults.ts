import { type ErpErrorInfo, integratorReference, needsIntegrator, transient } from '../errors.ts';
import { KIND_LABEL } from '../labels.ts';
import type { ObjectKind } from '../types.ts';
import { HledgerFault } from './client.ts';

/**
 * What a failed call to hledger-web means for the bookkeeper: no answer is transient (retried);
 * a refused transaction or an answer the adapter cannot read is the integrator's (the journal's
 * shape or the adapter's), with a reference that is the same on every retry.
 */
export function faultInfo(error: unknown, subject: string, ...reference: string[]): ErpErrorInfo {
  if (error instanceof HledgerFault && error.kind === 'unavailable')
    return transient(
      'ERP_UNAVAILABLE',
      `hledger-web could not answer for the ${subject} just now`,
      error.message,
    );
  const refused = error instanceof HledgerFault && error.kind === 'refused';
  const detail = error instanceof Error ? error.message : String(error);
  return needsIntegrator(
    refused ? 'HLEDGER_REFUSED' : 'HLEDGER_FAULT',
    refused
      ? `hledger-web refused the ${subject}`
      : `hledger-web answered the ${subject} in a way ledgersync cannot read`,
    detail,
    integratorReference('hledger', ...reference, detail),
  );
}

export function writeFaultInfo(error: unknown, kind: ObjectKind, objectId: string): ErpErrorInfo {
  return faultInfo(error, KIND_LABEL[kind], kind, objectId);
}
