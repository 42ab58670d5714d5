import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createErp, type ErpAdapter } from '../../../../src/erp/index.ts';
import { seedLedger } from '../../../../src/erp/ledger/seed.ts';
import { useTestDatabase } from '../../../support/db.ts';
import { cardTransaction, codedLine } from '../../../support/ledger-inputs.ts';

/**
 * The tables that grow with every write (postings, the journal) are read through their keys only.
 * A plan that scans one of them costs more with every object ever posted; such plans were made
 * while the tables were small and then kept for the life of a connection (each page of a 200,000
 * object sync read the whole journal twice).
 */
const db = useTestDatabase({ migrate: false });
const GROWING = ['postings', 'journal_entries', 'journal_lines'];
let schema: string;
let one: postgres.Sql;
let erp: ErpAdapter;

const card = (objectId: string, vendorId: string | null) =>
  cardTransaction(objectId, { lines: [codedLine(2_500, vendorId ? { vendorId } : {})] });

/** Sequential scans of the growing tables so far, as this connection's statistics say. */
async function scans(): Promise<Record<string, number>> {
  await one`select pg_stat_force_next_flush()`;
  const rows = await one<{ relname: string; seq_scan: string }[]>`
    select relname, seq_scan from pg_stat_user_tables where schemaname = ${schema} and relname in ${one(GROWING)}`;
  return Object.fromEntries(rows.map((r) => [r.relname, Number(r.seq_scan)]));
}

beforeAll(async () => {
  schema = db.newSchema('ledger');
  await seedLedger(db.sql, schema, { seed: 5 });
  // One connection, so the statistics read are those of the connection that wrote.
  one = postgres(inject('databaseUrl'), { max: 1, onnotice: () => {} });
  erp = createErp({ kind: 'ledger', sql: one, schema });
});

afterAll(async () => {
  await one?.end({ timeout: 5 });
});

describe('ledger reads through keys', () => {
  it('a batch is planned, checked and written without scanning postings or the journal', async () => {
    const [vendor] = await db.sql`select id from ${db.sql(schema)}.vendors order by id limit 1`;
    // Several batches first: the plans a connection keeps are made in its first executions.
    for (let batch = 0; batch < 8; batch++) {
      const items = Array.from({ length: 20 }, (_, i) =>
        card(`probe-${batch}-${i}`, i % 2 ? vendor!.id : null),
      );
      const results = await erp.postMany(items);
      expect(results.filter((r) => !r.ok)).toEqual([]);
    }
    const before = await scans();
    const items = Array.from({ length: 20 }, (_, i) => card(`probe-last-${i}`, vendor!.id));
    expect((await erp.postMany(items)).every((r) => r.ok)).toBe(true);
    // A replay reads what is posted: through the key as well.
    expect((await erp.postMany(items)).every((r) => r.ok && r.replayed)).toBe(true);
    expect(await scans()).toEqual(before);
  });
});
