import type { Sql } from 'postgres';
import { postingKey } from '../core/batch.ts';
import type { ObjectKind } from '../types.ts';
import type { LedgerTables } from './tables.ts';

/**
 * The idempotency record: one `postings` row per (kind, platform object id) the ledger accepted
 * (claimed by insert-journal.ts). Reading it tells what is already posted, to replay it.
 */

type Db = Sql;

/** The idempotency key of a posting (kind, object id). */
export const keyOf = postingKey;

export interface PostingKey {
  kind: ObjectKind;
  objectId: string;
}

export interface PostingRow extends PostingKey {
  postingId: string;
  referenceId: string;
  postedAt: string;
}

function toJson(keys: readonly PostingKey[]): string {
  return JSON.stringify(keys.map((k) => ({ kind: k.kind, object_id: k.objectId })));
}

/** What is posted for these keys, probed through the unique key (see readView in context.ts). */
export async function readPostings(
  db: Db,
  t: LedgerTables,
  keys: readonly PostingKey[],
): Promise<Map<string, PostingRow>> {
  if (keys.length === 0) return new Map();
  const rows = await db<PostingRow[]>`
    select p.kind, p.object_id as "objectId", p.id::text as "postingId", p.reference_id as "referenceId",
           to_char(p.posted_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "postedAt"
      from json_to_recordset(${toJson(keys)}::text::json) as k(kind text, object_id text)
      cross join lateral (select * from ${t.postings} p
                           where p.kind = k.kind and p.object_id = k.object_id limit 1) p`;
  return new Map(rows.map((r) => [keyOf(r), r]));
}
