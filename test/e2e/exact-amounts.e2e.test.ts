import { describe, expect, it } from 'vitest';
import { formatMinor } from '../../src/erp/index.ts';
import { currencyExponent } from '../../src/money.ts';
import { runCli } from '../support/cli.ts';
import { useTestRedis } from '../support/redis.ts';
import { useSyncWorld, worldEnv } from '../support/sync-world.ts';

/**
 * Amounts are counted exactly from their decimal text or refused (docs/platform.md G1, F22),
 * through the real binary: a card transaction of 1e21, which `toFixed` writes "1e+21" and
 * which used to post as one minor unit and report SYNCED, becomes a failed_syncs entry a bookkeeper can
 * act on, and nothing of it reaches the ERP; the other transactions of the run post as before.
 */
const world = useSyncWorld();
const redis = useTestRedis();

interface StubView {
  object: { currency_code: string };
  state: { sync_status: string; failures: { message: string }[] };
}

describe('an amount the ERP cannot hold exactly (docs/platform.md G1)', () => {
  it('G1: a transaction of 1e21 is a failed_syncs entry with its reason; nothing of it is posted', async () => {
    await world.seed({
      seed: 121,
      transactions: 0,
      reimbursements: 0,
      transfers: 0,
      cashbacks: 0,
      bills: 0,
      ready_fraction: 1,
      uncoded_fraction: 0,
      unknown_coding_fraction: 0,
      vendor_creation_fraction: 0,
    });
    const { ids } = await world.control<{ ids: string[] }>('POST', '/__stub/objects/transactions', {
      count: 6,
    });
    const [huge, ...others] = ids;
    // 1e21 in the transaction's own currency, without line items: nothing else to read it from.
    await world.control('PATCH', `/__stub/objects/transaction/${huge}`, { amount: 1e21, line_items: [] });
    const code = (await world.control<StubView>('GET', `/__stub/objects/transaction/${huge}`)).object
      .currency_code;
    const exponent = currencyExponent(code);
    const most = formatMinor(Number.MAX_SAFE_INTEGER, { code, exponent }).replace(` ${code}`, '');

    const result = await runCli(['sync', 'transactions'], { ...worldEnv(world, redis) });
    expect(result.code, result.stderr).toBe(3);

    const [row] = await world.db.sql<{ outcome: string; error_category: string; error_message: string }[]>`
      select outcome, error_category, error_message from sync_ledger where object_id = ${huge!}`;
    expect(row).toMatchObject({ outcome: 'failure', error_category: 'user_actionable' });
    expect(row!.error_message).toBe(
      'Action needed: The amount of this card transaction cannot be read: the amount 1,000,000,000,000,000,000,000 ' +
        `is too large to be counted exactly (the most is ${most}). ` +
        'Fix: Check the amount and currency on the platform, then sync again.',
    );
    // Reported to the platform as a failed_syncs entry: still ready, with the message.
    const view = await world.control<StubView>('GET', `/__stub/objects/transaction/${huge}`);
    expect(view.state.sync_status).toBe('SYNC_READY');
    expect(view.state.failures.map((f) => f.message)).toContain(row!.error_message);

    const ledger = world.db.sql(world.ledgerSchema);
    const posted = await world.db.sql<{ source_object_id: string }[]>`
      select source_object_id from ${ledger}.journal_entries where source_object_id in ${world.db.sql(ids)}`;
    expect(posted.map((p) => p.source_object_id)).not.toContain(huge);
    // The run itself went on: the others were posted (those the seed could post at all).
    const synced = await world.db.sql<{ object_id: string }[]>`
      select object_id from sync_ledger where outcome = 'success' and object_id in ${world.db.sql(others)}`;
    expect(synced.length).toBeGreaterThan(0);
    expect(new Set(posted.map((p) => p.source_object_id))).toEqual(new Set(synced.map((s) => s.object_id)));
  });
});
