import { beforeAll, describe, expect, it } from 'vitest';
import { LedgerAdmin } from '../../../../src/erp/ledger/ledger-admin.ts';
import { seedLedger } from '../../../../src/erp/ledger/seed.ts';
import { type LedgerTables, ledgerTables } from '../../../../src/erp/ledger/tables.ts';
import { useTestDatabase } from '../../../support/db.ts';

/** The invariants the database itself enforces, whatever code writes to it. */
const db = useTestDatabase({ migrate: false });
let t: LedgerTables;

async function newEntry(objectId: string, date = '2025-01-10'): Promise<string> {
  const [posting] = await db.sql`
    insert into ${t.postings} (kind, object_id) values ('card_transaction', ${objectId}) returning id::text`;
  await db.sql`
    insert into ${t.journal_entries} (id, entity_id, entry_date, currency, source_kind, source_object_id)
    values (${posting!.id}, 'ent-us', ${date}, 'USD', 'card_transaction', ${objectId})`;
  return posting!.id as string;
}

function lines(entryId: string, amounts: number[]) {
  return amounts.map((amount, i) => ({ entry_id: entryId, line_no: i + 1, account_id: 'gl-6020', amount }));
}

beforeAll(async () => {
  const schema = db.newSchema('ledger');
  await seedLedger(db.sql, schema, { seed: 1 });
  t = ledgerTables(db.sql, schema);
});

describe('database rules of the ledger', () => {
  it('refuses journal lines that do not sum to zero per entry (LS002)', async () => {
    const entry = await newEntry('db-unbalanced');
    await expect(
      db.sql`insert into ${t.journal_lines} ${db.sql(lines(entry, [100, -99]))}`,
    ).rejects.toMatchObject({
      code: 'LS002',
    });
    await db.sql`insert into ${t.journal_lines} ${db.sql(lines(entry, [100, -100]))}`;
    // A later statement that unbalances a balanced entry is refused too.
    await expect(
      db.sql`insert into ${t.journal_lines} (entry_id, line_no, account_id, amount) values (${entry}, 3, 'gl-6020', 5)`,
    ).rejects.toMatchObject({ code: 'LS002' });
  });

  it('refuses an entry dated in a closed period (LS001)', async () => {
    await new LedgerAdmin(db.sql, t.schema).closePeriod('2024-11');
    await expect(newEntry('db-closed', '2024-11-30')).rejects.toMatchObject({ code: 'LS001' });
    await new LedgerAdmin(db.sql, t.schema).reopenPeriod('2024-11');
    await expect(newEntry('db-reopened', '2024-11-30')).resolves.toBeTruthy();
  });

  it('keeps the journal append-only (LS003)', async () => {
    const entry = await newEntry('db-append-only');
    await db.sql`insert into ${t.journal_lines} ${db.sql(lines(entry, [7, -7]))}`;
    await expect(
      db.sql`update ${t.journal_lines} set memo = 'x' where entry_id = ${entry}`,
    ).rejects.toMatchObject({
      code: 'LS003',
    });
    await expect(db.sql`delete from ${t.journal_entries} where id = ${entry}`).rejects.toMatchObject({
      code: 'LS003',
    });
  });

  it('checks every line’s entry, account and vendor, once per statement', async () => {
    const entry = await newEntry('db-references');
    const bad = (account: string, vendor: string | null) => [
      { entry_id: entry, line_no: 1, account_id: account, amount: 5, vendor_id: vendor },
      { entry_id: entry, line_no: 2, account_id: 'gl-2100', amount: -5, vendor_id: null },
    ];
    await expect(
      db.sql`insert into ${t.journal_lines} ${db.sql(bad('gl-nope', null))}`,
    ).rejects.toMatchObject({
      code: '23503',
      message: 'account gl-nope does not exist',
    });
    await expect(
      db.sql`insert into ${t.journal_lines} ${db.sql(bad('gl-6020', 'ven-nope'))}`,
    ).rejects.toMatchObject({
      code: '23503',
      message: 'vendor ven-nope does not exist',
    });
    const orphan = [
      { entry_id: '999999', line_no: 1, account_id: 'gl-6020', amount: 5 },
      { entry_id: '999999', line_no: 2, account_id: 'gl-2100', amount: -5 },
    ];
    await expect(db.sql`insert into ${t.journal_lines} ${db.sql(orphan)}`).rejects.toMatchObject({
      code: '23503',
      message: 'journal entry 999999 does not exist',
    });
  });

  it('traces every entry to the posting of its platform object', async () => {
    const [posting] = await db.sql`
      insert into ${t.postings} (kind, object_id) values ('card_transaction', 'db-trace') returning id::text`;
    await expect(
      db.sql`insert into ${t.journal_entries} (id, entity_id, entry_date, currency, source_kind, source_object_id)
             values (${posting!.id}, 'ent-us', '2025-01-10', 'USD', 'card_transaction', 'db-other')`,
    ).rejects.toMatchObject({ code: '23503', message: expect.stringContaining('does not match a posting') });
    // An entry whose id no posting has, and one naming an entity the books do not know.
    await expect(
      db.sql`insert into ${t.journal_entries} (id, entity_id, entry_date, currency, source_kind, source_object_id)
             values (987654321, 'ent-us', '2025-01-10', 'USD', 'card_transaction', 'db-trace')`,
    ).rejects.toMatchObject({
      code: '23503',
      message: 'journal entry 987654321 does not match a posting of card_transaction db-trace',
    });
    await expect(
      db.sql`insert into ${t.journal_entries} (id, entity_id, entry_date, currency, source_kind, source_object_id)
             values (${posting!.id}, 'ent-nope', '2025-01-10', 'USD', 'card_transaction', 'db-trace')`,
    ).rejects.toMatchObject({ code: '23503', message: 'entity ent-nope does not exist' });
  });

  it('never deletes what the journal refers to', async () => {
    await expect(db.sql`delete from ${t.accounts} where id = 'gl-9999'`).rejects.toMatchObject({
      code: 'LS003',
    });
    await expect(db.sql`delete from ${t.vendors} where id = 'ven-00001'`).rejects.toMatchObject({
      code: 'LS003',
    });
    await expect(db.sql`delete from ${t.postings}`).rejects.toMatchObject({ code: 'LS003' });
    await expect(db.sql`update ${t.accounts} set active = false where id = 'gl-9999'`).resolves.toBeTruthy();
  });

  it('holds one posting per (kind, platform object id)', async () => {
    await newEntry('db-once');
    await expect(newEntry('db-once')).rejects.toMatchObject({ code: '23505' });
  });

  it('numbers references by kind', async () => {
    const rows = await db.sql`
      insert into ${t.postings} (kind, object_id)
      values ('bill', 'db-ref-bill'), ('vendor', 'db-ref-vendor'), ('bill_payment', 'db-ref-pay')
      returning reference_id`;
    expect(rows.map((r) => r.reference_id)).toEqual([
      expect.stringMatching(/^BILL-\d{7}$/),
      expect.stringMatching(/^V-\d{7}$/),
      expect.stringMatching(/^PAY-\d{7}$/),
    ]);
  });
});
