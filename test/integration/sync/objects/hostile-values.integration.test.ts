import { beforeAll, describe, expect, it } from 'vitest';
import { formatMinor } from '../../../../src/erp/index.ts';
import { silentLogger } from '../../../../src/log.ts';
import { currencyExponent, toMinorUnits } from '../../../../src/money.ts';
import { KIND_SPECS } from '../../../../src/sync/objects/kinds.ts';
import { syncObjects } from '../../../../src/sync/objects/sync-objects.ts';
import { useSyncWorld } from '../../../support/sync-world.ts';

/**
 * Hostile values on ready objects, through the whole pipeline (stub + built-in ledger): a zero
 * amount and line items that disagree with the total become failed_syncs entries a bookkeeper
 * can act on; a NUL byte in a memo is removed and the object syncs; every other object of the
 * page still syncs.
 */
const world = useSyncWorld();

interface StubLine {
  amount: { amount: number; currency_code: string } | null;
  converted_amount?: { amount: number; currency_code: string } | null;
  memo?: string | null;
}
interface StubView {
  object: { id: string; amount: number; currency_code: string; memo: string | null; line_items: StubLine[] };
  state: { sync_status: string; failures: { message: string; sync_type: string }[] };
}
interface Mark {
  object_id: string;
  sync_type: string;
  result: string;
}

const money = (minor: number, code: string) => formatMinor(minor, { code, exponent: currencyExponent(code) });
const view = (id: string) => world.control<StubView>('GET', `/__stub/objects/transaction/${id}`);
const patch = (id: string, body: Record<string, unknown>) =>
  world.control('PATCH', `/__stub/objects/transaction/${id}`, body);

async function erpEntries(objectId: string): Promise<{ memo: string; lines: number }[]> {
  const ledger = world.db.sql(world.ledgerSchema);
  return world.db.sql<{ memo: string; lines: number }[]>`
    select e.memo, (select count(*)::int from ${ledger}.journal_lines l where l.entry_id = e.id) as lines
    from ${ledger}.journal_entries e where e.source_object_id = ${objectId}`;
}

let zero = '';
let doubled = '';
let nul = '';
let others: string[] = [];

beforeAll(async () => {
  await world.seed({
    seed: 31,
    transactions: 60,
    reimbursements: 0,
    transfers: 0,
    cashbacks: 0,
    bills: 0,
    ready_fraction: 1,
    synced_fraction: 0,
    split_fraction: 0.5,
    foreign_fraction: 0,
    refund_fraction: 0,
    uncoded_fraction: 0,
    unknown_coding_fraction: 0,
    vendor_creation_fraction: 0,
  });
  const ready = (await world.platform.objects.ready(KIND_SPECS.transactions.list).collect()).values;
  const split = ready.filter((t) => t.line_items.length >= 2);
  const whole = ready.filter((t) => t.line_items.length < 2);
  expect(split.length).toBeGreaterThan(0);
  expect(whole.length).toBeGreaterThan(1);
  doubled = split[0]!.id;
  zero = whole[0]!.id;
  nul = whole[1]!.id;
  others = ready.map((t) => t.id).filter((id) => ![zero, doubled, nul].includes(id));

  // Line items adding up to twice the total: every line amount doubled.
  const lines = (await view(doubled)).object.line_items.map((line) => ({
    ...line,
    amount: line.amount && { ...line.amount, amount: line.amount.amount * 2 },
    converted_amount: line.converted_amount && {
      ...line.converted_amount,
      amount: line.converted_amount.amount * 2,
    },
  }));
  await patch(doubled, { line_items: lines });
  await patch(zero, { amount: 0 });
  await patch(nul, { memo: 'Team lunch\u0000 with client' });

  const summary = await syncObjects(
    {
      sql: world.db.sql,
      erp: world.erp,
      platform: world.syncPlatform,
      connectionId: world.connectionId,
      log: silentLogger,
    },
    'transactions',
  );
  expect(summary.read).toBe(ready.length);
}, 120_000);

async function reported(objectId: string) {
  const [row] = await world.db.sql<
    {
      outcome: string;
      error_category: string | null;
      error_message: string | null;
      platform_status: string;
    }[]
  >`
    select outcome, error_category, error_message, platform_status from sync_ledger
    where object_id = ${objectId} and sync_type = 'TRANSACTION_SYNC'`;
  return row;
}

describe('hostile values through the pipeline', () => {
  it('a zero amount is a user-actionable failed_syncs entry, and nothing is posted', async () => {
    const row = await reported(zero);
    const { currency_code } = (await view(zero)).object;
    expect(row).toMatchObject({
      outcome: 'failure',
      error_category: 'user_actionable',
      platform_status: 'FAILED',
    });
    expect(row!.error_message).toBe(
      `Action needed: This card transaction has an amount of zero (${money(0, currency_code)}), so there is nothing to post to the ERP. ` +
        'Fix: Check the amount on the spend platform and correct it, then sync again.',
    );
    const platform = await view(zero);
    expect(platform.state.sync_status).toBe('SYNC_READY');
    expect(platform.state.failures.map((f) => f.message)).toContain(row!.error_message);
    expect(await erpEntries(zero)).toEqual([]);
  });

  it('line items adding up to twice the total are refused, naming both sums', async () => {
    const { amount, currency_code: code } = (await view(doubled)).object;
    const total = toMinorUnits(amount, currencyExponent(code));
    const row = await reported(doubled);
    expect(row).toMatchObject({
      outcome: 'failure',
      error_category: 'user_actionable',
      platform_status: 'FAILED',
    });
    expect(row!.error_message).toBe(
      `Action needed: The line items of this card transaction add up to ${money(total * 2, code)}, but its total is ${money(total, code)}. ` +
        'Fix: Correct the line item amounts or the total in the spend platform so that they agree, then sync again.',
    );
    expect((await view(doubled)).state.failures.map((f) => f.message)).toContain(row!.error_message);
    expect(await erpEntries(doubled)).toEqual([]);
  });

  it('a NUL byte in a memo is removed: the object syncs with the memo as the bookkeeper sees it', async () => {
    const row = await reported(nul);
    expect(row).toMatchObject({ outcome: 'success', platform_status: 'SYNCED' });
    const entries = await erpEntries(nul);
    expect(entries).toHaveLength(1);
    expect(entries[0]!.memo).toBe('Team lunch with client');
    expect(entries[0]!.lines).toBeGreaterThan(1);
  });

  it('every other object still syncs, each marked once', async () => {
    const effects = await world.control<{ marks: Mark[] }>(
      'GET',
      '/__stub/effects?include=marks&limit=100000',
    );
    const synced = new Set(
      effects.marks
        .filter((m) => m.sync_type === 'TRANSACTION_SYNC' && m.result === 'SYNCED')
        .map((m) => m.object_id),
    );
    for (const id of others) expect(synced.has(id), id).toBe(true);
    expect(effects.marks.filter((m) => m.result === 'REJECTED')).toEqual([]);
    expect(
      effects.marks
        .filter((m) => m.result === 'FAILED')
        .map((m) => m.object_id)
        .sort(),
    ).toEqual([zero, doubled].sort());
  });
});
