import type { Sql } from 'postgres';

/**
 * A history check after a fault run, in the style of Jepsen's lost / duplicated classification.
 * It reads what happened from the two sides that matter, never from ledgersync's own state: the
 * stub's record of sync marks and of sync posts, and the ERP's postings.
 *
 * - lost: an object that was ready when the run began and got no answer at all (neither SYNCED
 *   nor FAILED) on the platform;
 * - duplicated: an (object, sync type) the platform marked SYNCED more than once;
 * - unreported: posted in the ERP but never marked SYNCED (the books have it, the platform
 *   still shows it ready: the next run would post it again if the ERP were not idempotent);
 * - phantom: marked SYNCED on the platform with no posting in the ERP (silently dropped);
 * - keyConflicts: sync posts the platform refused with 400 (an idempotency key reused with
 *   another body is 7005, a body missing is 7011: both mean the outbox broke its promise).
 */
export interface HistoryReport {
  lost: string[];
  duplicated: string[];
  unreported: string[];
  phantom: string[];
  keyConflicts: number;
}

type Control = <T = unknown>(method: string, path: string, body?: unknown) => Promise<T>;

interface Mark {
  object_id: string;
  sync_type: string;
  result: string;
}
interface Arrival {
  method: string;
  route: string;
  status: number;
}

/** ERP posting kinds and the sync type each is reported with. */
const SYNC_TYPE_OF_KIND: Record<string, string> = {
  card_transaction: 'TRANSACTION_SYNC',
  reimbursement: 'REIMBURSEMENT_SYNC',
  transfer: 'TRANSFER_SYNC',
  cashback: 'STATEMENT_CREDIT_SYNC',
  bill: 'BILL_SYNC',
  bill_payment: 'BILL_PAYMENT_SYNC',
};

export async function checkHistory(options: {
  control: Control;
  sql: Sql;
  ledgerSchema: string;
  /** Ids of the objects that were ready when the run began. */
  readyAtStart: Iterable<string>;
}): Promise<HistoryReport> {
  const { control, sql } = options;
  const effects = await control<{
    marks: Mark[];
    arrivals: Arrival[];
    summary: { synced_more_than_once: { object_id: string; sync_type: string }[] };
  }>('GET', '/__stub/effects?include=marks,arrivals&summary=true&limit=1000000');

  const answered = new Set(effects.marks.filter((m) => m.result !== 'REJECTED').map((m) => m.object_id));
  const synced = new Set(
    effects.marks.filter((m) => m.result === 'SYNCED').map((m) => `${m.sync_type}:${m.object_id}`),
  );
  const postings = await sql<{ kind: string; object_id: string }[]>`
    select kind, object_id from ${sql(options.ledgerSchema)}.postings where kind <> 'vendor'`;
  const posted = new Set(postings.map((p) => `${SYNC_TYPE_OF_KIND[p.kind] ?? p.kind}:${p.object_id}`));

  return {
    lost: [...options.readyAtStart].filter((id) => !answered.has(id)),
    duplicated: effects.summary.synced_more_than_once.map((d) => `${d.sync_type}:${d.object_id}`),
    unreported: [...posted].filter((key) => !synced.has(key)),
    phantom: [...synced].filter((key) => !posted.has(key)),
    keyConflicts: effects.arrivals.filter(
      (a) => a.method === 'POST' && a.route === '/accounting/syncs' && a.status === 400,
    ).length,
  };
}

/** The report of a clean history, for `expect(report).toEqual(CLEAN_HISTORY)`. */
export const CLEAN_HISTORY: HistoryReport = {
  lost: [],
  duplicated: [],
  unreported: [],
  phantom: [],
  keyConflicts: 0,
};
