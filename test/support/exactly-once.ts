import { expect } from 'vitest';
import type { SyncWorld } from './sync-world.ts';

interface Effects {
  arrivals: { route: string; status: number }[];
  summary: { synced_more_than_once: unknown[] };
}

/**
 * After crashes and a clean final run: nothing pending, every result batch acknowledged, each
 * object marked on the platform at most once and posted in the ERP (the world's ledger) once.
 */
export async function checkExactlyOnce(world: SyncWorld): Promise<void> {
  const { sql } = world.db;
  const pending =
    await sql`select state, count(*)::int as n from sync_ledger where state <> 'REPORTED' group by state`;
  expect(pending, 'nothing left pending in the sync ledger').toEqual([]);
  const frozen = await sql`select count(*)::int as n from result_batches where state <> 'ACKED'`;
  expect(frozen[0]?.n, 'every result batch acknowledged').toBe(0);
  const effects = await world.control<Effects>(
    'GET',
    '/__stub/effects?include=arrivals&summary=true&limit=100000',
  );
  expect(effects.summary.synced_more_than_once, 'marked on the platform at most once').toEqual([]);
  const conflicts = effects.arrivals.filter((a) => a.route.includes('/accounting/syncs') && a.status === 400);
  expect(conflicts, 'no idempotency key reused with a different body (7005)').toEqual([]);
  const duplicates = await sql`
    select p.kind, p.object_id, count(*)::int as n
    from ${sql(world.ledgerSchema)}.postings p group by p.kind, p.object_id having count(*) > 1`;
  expect(duplicates, 'each object in the ERP once').toEqual([]);
  const reported = await sql`select count(*)::int as n from sync_ledger where outcome = 'success'`;
  const posted =
    await sql`select count(*)::int as n from ${sql(world.ledgerSchema)}.postings where kind in ('card_transaction', 'bill', 'bill_payment')`;
  expect(posted[0]?.n, 'every success reported is one ERP posting').toBe(reported[0]?.n);
}
