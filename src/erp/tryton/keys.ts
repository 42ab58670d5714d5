import type { ObjectKind } from '../types.ts';

/**
 * The idempotency reference each record written to Tryton carries: `svc:<kind>:<object id>`,
 * stored where Tryton keeps a record's own reference and a bookkeeper sees it — the description
 * of a move or supplier invoice (read-only once posted), an identifier of a created party. A
 * write looks it up before creating anything, so a retry after a lost answer finds the first
 * record instead of making a second one.
 */

export interface RecordKey {
  kind: ObjectKind;
  objectId: string;
  text: string;
}

const KEY_PREFIX = 'svc';

export function recordKey(kind: ObjectKind, objectId: string): RecordKey {
  return { kind, objectId, text: `${KEY_PREFIX}:${kind}:${objectId}` };
}

export function billKey(objectId: string): RecordKey {
  return recordKey('bill', objectId);
}

/** Where a kind's records live in Tryton. */
export type RecordModel = 'party.party' | 'account.invoice' | 'account.move';

export function modelOf(kind: ObjectKind): RecordModel {
  if (kind === 'vendor') return 'party.party';
  if (kind === 'bill') return 'account.invoice';
  return 'account.move';
}
