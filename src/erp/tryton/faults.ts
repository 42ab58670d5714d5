import { refuse } from '../core/refusals.ts';
import {
  type ErpErrorInfo,
  integratorReference,
  needsIntegrator,
  transient,
  userActionable,
} from '../errors.ts';
import { KIND_LABEL } from '../labels.ts';
import type { ErpWrite } from '../types.ts';
import { TrytonFault } from './rpc.ts';
import { trytonTerms } from './terms.ts';

/**
 * Tryton's own refusals, for what the adapter's checks could not see coming (the books changed
 * between the check and the write, a rule of a module the checks do not know), sorted into the
 * three categories. Over JSON-RPC a UserError arrives as its message only, so the known ones are
 * recognised by Tryton's message texts (account/message.xml, ir/message.xml of Tryton 6.0).
 */

const CLOSED_ACCOUNT = /create a line on account "(.+?)", you must set a type or unclose it/;
const PARTY_REQUIRED = /create a line on account "(.+?)", you must set a party/;
const PARTY_SET = /create a line on account "(.+?)", you must remove the party/;
const PERIOD_MISSING = /you must create a period for the date|no (open )?period/i;
const PERIOD_CLOSED = /closed period|period .* is closed|closed journal-period/i;
const ACCESS = /you are not allowed to|access/i;

/** Tryton's words, without a company: a fault does not say which company it met. */
const TERMS = trytonTerms(null, false);

function what(input: { kind: ErpWrite['kind']; objectId: string }): string {
  return `${KIND_LABEL[input.kind]} ${input.objectId}`;
}

function fromUserError(fault: TrytonFault, input: ErpWrite): ErpErrorInfo {
  const text = `${fault.message} ${fault.description}`;
  const date = 'date' in input ? input.date : '';
  const closed = CLOSED_ACCOUNT.exec(text);
  if (closed)
    return refuse.inactiveAccount(TERMS, { code: null, name: closed[1]! }, `the ${KIND_LABEL[input.kind]}`);
  const party = PARTY_REQUIRED.exec(text);
  if (party) {
    return userActionable(
      'ACCOUNT_NEEDS_PARTY',
      `Account ${party[1]} needs a party in Tryton, and the ${KIND_LABEL[input.kind]} names none for it`,
      `choose a vendor on the line coded to ${party[1]}, or untick Party Required on the account in Tryton`,
    );
  }
  const partySet = PARTY_SET.exec(text);
  if (partySet) {
    return userActionable(
      'ACCOUNT_TAKES_NO_PARTY',
      `Account ${partySet[1]} takes no party in Tryton, and the ${KIND_LABEL[input.kind]} names one for it`,
      `remove the vendor from the line coded to ${partySet[1]}, or tick Party Required on the account in Tryton`,
    );
  }
  if (input.kind !== 'vendor' && PERIOD_CLOSED.test(text))
    return refuse.closedPeriod(TERMS, input.kind, date, date.slice(0, 7));
  if (input.kind !== 'vendor' && PERIOD_MISSING.test(text))
    return refuse.missingPeriod(TERMS, input.kind, date);
  if (ACCESS.test(text)) return accessDenied(input, fault);
  return needsIntegrator(
    'ERP_REFUSED',
    `Tryton refused the ${what(input)}`,
    `Tryton said: ${fault.message}`,
    integratorReference('tryton', input.kind, input.objectId, fault.message),
  );
}

function accessDenied(input: ErpWrite, fault: TrytonFault): ErpErrorInfo {
  return needsIntegrator(
    'ERP_ACCESS_DENIED',
    `The Tryton user the sync works as may not record the ${what(input)}`,
    'give that user the Account group in Tryton, and access to the company',
    integratorReference('tryton', 'access', fault.method),
  );
}

/** The category and words for a fault met while writing one object. */
export function failureOf(error: unknown, input: ErpWrite): ErpErrorInfo {
  if (!(error instanceof TrytonFault)) {
    const message = error instanceof Error ? error.message : String(error);
    return needsIntegrator(
      'ERP_UNEXPECTED',
      `The ${what(input)} could not be recorded in Tryton`,
      "The adapter's error is in the worker log",
      integratorReference('tryton', input.kind, input.objectId, message),
    );
  }
  switch (error.kind) {
    case 'unavailable':
    case 'concurrency':
      return transient(
        'ERP_UNAVAILABLE',
        `Tryton could not record the ${what(input)} just now`,
        error.message,
      );
    case 'user_error':
      return fromUserError(error, input);
    case 'access':
      return accessDenied(input, error);
    case 'login':
      return needsIntegrator(
        'ERP_LOGIN_REFUSED',
        'Tryton refused the login of the sync',
        'check the Tryton user and password the worker is configured with (TRYTON_USER, TRYTON_PASSWORD)',
        integratorReference('tryton', 'login'),
      );
    case 'user_warning':
    case 'server':
      return needsIntegrator(
        'ERP_UNEXPECTED',
        `Tryton refused the ${what(input)} unexpectedly`,
        "Tryton's answer is in the worker log",
        integratorReference('tryton', input.kind, input.objectId, error.message),
      );
  }
}

/** For reads and lookups, which cannot return a value: the same categories, no object. */
export function readFailureOf(error: unknown, subject: string): ErpErrorInfo {
  if (error instanceof TrytonFault && (error.kind === 'unavailable' || error.kind === 'concurrency')) {
    return transient('ERP_UNAVAILABLE', `Tryton could not answer for the ${subject} just now`, error.message);
  }
  if (error instanceof TrytonFault && error.kind === 'login') {
    return needsIntegrator(
      'ERP_LOGIN_REFUSED',
      'Tryton refused the login of the sync',
      'check the Tryton user and password the worker is configured with (TRYTON_USER, TRYTON_PASSWORD)',
      integratorReference('tryton', 'login'),
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return needsIntegrator(
    'ERP_UNEXPECTED',
    `Tryton could not be read for the ${subject}`,
    "Tryton's answer is in the worker log",
    integratorReference('tryton', 'read', subject, message),
  );
}
