import type { Sql } from 'postgres';
import type { LookupResult, ObjectKind } from '../types.ts';
import { keyOf, readPostings } from './postings.ts';
import type { LedgerTables } from './tables.ts';

/** What the ledger holds for platform object ids: one read, results in input order. */
export async function lookupPostings(
  sql: Sql,
  t: LedgerTables,
  keys: readonly { kind: ObjectKind; objectId: string }[],
  deepLink: (kind: ObjectKind, referenceId: string) => string | undefined,
): Promise<LookupResult[]> {
  const rows = await readPostings(sql, t, keys);
  return keys.map(({ kind, objectId }) => {
    const row = rows.get(keyOf({ kind, objectId }));
    if (!row) return { found: false, kind, objectId };
    const deepLinkUrl = deepLink(kind, row.referenceId);
    return {
      found: true,
      kind,
      objectId,
      referenceId: row.referenceId,
      ...(deepLinkUrl ? { deepLinkUrl } : {}),
      postedAt: row.postedAt,
    };
  });
}
