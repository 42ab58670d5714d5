import type { Sql } from 'postgres';
import type { PlannedEntry } from '../core/plan.ts';
import type { Planned, PlannedVendor } from './model.ts';
import { keyOf, type PostingRow } from './postings.ts';
import type { LedgerTables } from './tables.ts';

/**
 * Writes a batch of planned entries and vendors in ONE statement: a data-modifying CTE claims
 * the postings rows (INSERT ... ON CONFLICT DO NOTHING), and only the rows it claimed get their
 * journal entry, lines, bill, payment or vendor. One statement is atomic without a transaction
 * and costs one round trip whatever the batch size; foreign keys and the balance trigger are
 * checked at its end. Rows travel as JSON parameters, joined back to the claim by (kind, object id).
 * Nested objects (a line's dimensions, an entry's counterpart) are read as text and cast to jsonb:
 * json_to_recordset converting them into a jsonb column itself took half again as long for the
 * same rows (docs/decisions.md, "Reading the ledger's JSON rows").
 *
 * Returns the postings rows claimed; a key missing from the answer was posted by a concurrent
 * call first (the claim waited for it on the unique index, then did nothing).
 */

type Db = Sql;

function entryRows(entries: readonly PlannedEntry[]) {
  return entries.map((e) => ({
    kind: e.kind,
    object_id: e.objectId,
    entity_id: e.entityId,
    entry_date: e.date,
    currency: e.currency.code,
    memo: e.memo,
    counterpart: e.counterpart,
  }));
}

function lineRows(entries: readonly PlannedEntry[]) {
  return entries.flatMap((e) =>
    e.lines.map((l, index) => ({
      kind: e.kind,
      object_id: e.objectId,
      line_no: index + 1,
      account_id: l.accountId,
      amount: l.amount,
      vendor_id: l.vendorId,
      tax_code_id: l.taxCodeId,
      tax_rate_id: l.taxRateId,
      dimensions: l.dimensions,
      memo: l.memo,
    })),
  );
}

function billRows(entries: readonly PlannedEntry[]) {
  return entries.flatMap((e) =>
    e.bill
      ? [
          {
            object_id: e.objectId,
            vendor_id: e.bill.vendorId,
            invoice_number: e.bill.invoiceNumber,
            due_date: e.bill.dueDate,
            currency: e.currency.code,
            total: e.bill.total,
          },
        ]
      : [],
  );
}

function paymentRows(entries: readonly PlannedEntry[]) {
  return entries.flatMap((e) =>
    e.payment ? [{ object_id: e.objectId, bill_id: e.payment.billId, amount: e.payment.amount }] : [],
  );
}

function vendorRows(vendors: readonly PlannedVendor[]) {
  return vendors.map((v) => ({ object_id: v.objectId, name: v.name, code: v.code }));
}

/** The batch as one JSON text per table, keyed by (kind, object id) to join back to the claim. */
function payloads(planned: readonly Planned[]) {
  const entries = planned.filter((p): p is PlannedEntry => p.kind !== 'vendor');
  const vendors = planned.filter((p): p is PlannedVendor => p.kind === 'vendor');
  return {
    keys: JSON.stringify(planned.map((p) => ({ kind: p.kind, object_id: p.objectId }))),
    entries: JSON.stringify(entryRows(entries)),
    lines: JSON.stringify(lineRows(entries)),
    bills: JSON.stringify(billRows(entries)),
    payments: JSON.stringify(paymentRows(entries)),
    vendors: JSON.stringify(vendorRows(vendors)),
  };
}

export async function writePlanned(
  db: Db,
  t: LedgerTables,
  planned: readonly Planned[],
): Promise<Map<string, PostingRow>> {
  if (planned.length === 0) return new Map();
  const { keys, entries, lines, bills, payments, vendors } = payloads(planned);
  const rows = await db<PostingRow[]>`
    with claimed as (
      insert into ${t.postings} (kind, object_id)
      select k.kind, k.object_id from json_to_recordset(${keys}::text::json) as k(kind text, object_id text)
       order by k.kind, k.object_id
      on conflict (kind, object_id) do nothing
      returning id, kind, object_id, reference_id, posted_at
    ), entries as (
      insert into ${t.journal_entries} (id, entity_id, entry_date, currency, memo, source_kind, source_object_id, counterpart)
      select c.id, r.entity_id, r.entry_date, r.currency, r.memo, c.kind, c.object_id, r.counterpart::jsonb
        from json_to_recordset(${entries}::text::json) as r(kind text, object_id text,
             entity_id text, entry_date date, currency text, memo text, counterpart text)
        join claimed c on c.kind = r.kind and c.object_id = r.object_id
    ), lines as (
      insert into ${t.journal_lines} (entry_id, line_no, account_id, amount, vendor_id, tax_code_id, tax_rate_id, dimensions, memo)
      select c.id, r.line_no, r.account_id, r.amount, r.vendor_id, r.tax_code_id, r.tax_rate_id,
             coalesce(r.dimensions::jsonb, '{}'::jsonb), coalesce(r.memo, '')
        from json_to_recordset(${lines}::text::json) as r(kind text, object_id text,
             line_no integer, account_id text, amount bigint, vendor_id text, tax_code_id text,
             tax_rate_id text, dimensions text, memo text)
        join claimed c on c.kind = r.kind and c.object_id = r.object_id
    ), bills as (
      insert into ${t.bills} (id, vendor_id, invoice_number, due_date, currency, total)
      select c.id, r.vendor_id, r.invoice_number, r.due_date, r.currency, r.total
        from json_to_recordset(${bills}::text::json) as r(object_id text, vendor_id text,
             invoice_number text, due_date date, currency text, total bigint)
        join claimed c on c.kind = 'bill' and c.object_id = r.object_id
    ), payments as (
      insert into ${t.bill_payments} (id, bill_id, amount)
      select c.id, r.bill_id, r.amount
        from json_to_recordset(${payments}::text::json) as r(object_id text, bill_id bigint, amount bigint)
        join claimed c on c.kind = 'bill_payment' and c.object_id = r.object_id
      returning bill_id, amount
    ), paid as (
      update ${t.bills} b set paid = b.paid + p.amount
        from (select bill_id, sum(amount) as amount from payments group by bill_id) p
       where b.id = p.bill_id
    ), vendors as (
      -- A created vendor's remote id is its posting's reference id ("V-0000042").
      insert into ${t.vendors} (id, name, code, created_by_posting)
      select c.reference_id, r.name, r.code, c.id
        from json_to_recordset(${vendors}::text::json) as r(object_id text, name text, code text)
        join claimed c on c.kind = 'vendor' and c.object_id = r.object_id
    )
    select kind, object_id as "objectId", id::text as "postingId", reference_id as "referenceId",
           to_char(posted_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "postedAt"
      from claimed`;
  return new Map(rows.map((r) => [keyOf(r), r]));
}
