import type { LookupResult, ObjectKind } from '../types.ts';
import { modelOf, type RecordKey, recordKey } from './keys.ts';
import type { TrytonModels } from './models.ts';
import { IdentifierRow, INVOICE_FIELDS, InvoiceRow, MOVE_FIELDS, MoveRow } from './rows.ts';

/**
 * Finds what Tryton already holds for object ids, by the reference each record carries
 * (keys.ts): in one search per model for a whole batch, over every company the adapter works in,
 * so an object whose entity now maps to another company is still found where it was posted. A
 * record left in draft by a write that was interrupted between creating and posting is found
 * too, so the retry finishes it.
 *
 * The search is an exact match on the reference, over the move and invoice descriptions, which
 * Tryton 6.0 does not index: PostgreSQL reads the company's moves once per batch (12 ms per
 * 100,000 moves, bench/tryton-lookups.ts). Narrowing it by an indexed column (the object's date
 * or period) would miss the record of an object whose date changed after it was posted, and post
 * it twice; docs/tryton.md says how a large database can index the descriptions instead.
 */

/** A record the adapter wrote: where it is in Tryton. */
export interface RecordRef {
  model: 'party.party' | 'account.invoice' | 'account.move';
  id: number;
}

/** What a reference names in Tryton, and the company it is in (parties are in none). */
export type Existing =
  | { model: 'party.party'; id: number; createdAt: string; complete: true; companyId: null }
  | {
      model: 'account.invoice';
      id: number;
      createdAt: string;
      complete: boolean;
      invoice: InvoiceRow;
      companyId: number;
    }
  | {
      model: 'account.move';
      id: number;
      createdAt: string;
      complete: boolean;
      move: MoveRow;
      companyId: number;
    };

/** A cancelled invoice is still the first record of its object: it is never made twice. */
const INVOICE_DONE = new Set(['posted', 'paid', 'cancelled']);

export async function findExisting(
  m: TrytonModels,
  companyIds: readonly number[],
  keys: readonly RecordKey[],
): Promise<Map<string, Existing>> {
  const found = new Map<string, Existing>();
  const texts = (model: string) => [
    ...new Set(keys.filter((k) => modelOf(k.kind) === model).map((k) => k.text)),
  ];
  const [parties, invoices, moves] = [texts('party.party'), texts('account.invoice'), texts('account.move')];
  const companies = ['company', 'in', [...companyIds]];
  const [identifiers, invoiceRows, moveRows] = await Promise.all([
    parties.length
      ? m.searchRead(
          'party.identifier',
          [['code', 'in', parties]],
          ['code', 'party', 'create_date'],
          IdentifierRow,
        )
      : [],
    invoices.length
      ? m.searchRead(
          'account.invoice',
          [companies, ['type', '=', 'in'], ['description', 'in', invoices]],
          INVOICE_FIELDS,
          InvoiceRow,
        )
      : [],
    moves.length
      ? m.searchRead('account.move', [companies, ['description', 'in', moves]], MOVE_FIELDS, MoveRow)
      : [],
  ]);
  // The oldest record wins, should a bookkeeper ever have copied one with its reference.
  for (const i of identifiers) {
    if (!found.has(i.code))
      found.set(i.code, {
        model: 'party.party',
        id: i.party,
        createdAt: i.create_date,
        complete: true,
        companyId: null,
      });
  }
  for (const invoice of invoiceRows) {
    const key = invoice.description ?? '';
    if (found.has(key)) continue;
    found.set(key, {
      model: 'account.invoice',
      id: invoice.id,
      createdAt: invoice.create_date,
      complete: INVOICE_DONE.has(invoice.state),
      invoice,
      companyId: invoice.company,
    });
  }
  for (const move of moveRows) {
    const key = move.description ?? '';
    if (found.has(key)) continue;
    found.set(key, {
      model: 'account.move',
      id: move.id,
      createdAt: move.create_date,
      complete: move.state === 'posted',
      move,
      companyId: move.company,
    });
  }
  return found;
}

export function referenceOf(existing: RecordRef): string {
  return existing.model === 'party.party' ? String(existing.id) : `${existing.model},${existing.id}`;
}

export async function lookupObjects(
  m: TrytonModels,
  companyIds: readonly number[],
  keys: readonly { kind: ObjectKind; objectId: string }[],
  deepLink: (kind: ObjectKind, record: RecordRef) => string | undefined,
): Promise<LookupResult[]> {
  const recordKeys = keys.map((k) => recordKey(k.kind, k.objectId));
  const found = await findExisting(m, companyIds, recordKeys);
  return recordKeys.map((key) => {
    const existing = found.get(key.text);
    if (!existing?.complete) return { found: false, kind: key.kind, objectId: key.objectId };
    const link = deepLink(key.kind, existing);
    return {
      found: true,
      kind: key.kind,
      objectId: key.objectId,
      referenceId: referenceOf(existing),
      ...(link ? { deepLinkUrl: link } : {}),
      postedAt: existing.createdAt,
    };
  });
}
