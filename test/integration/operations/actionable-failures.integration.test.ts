import { describe, expect, it } from 'vitest';
import { recentActionableFailures } from '../../../src/sync/sync-ledger/index.ts';
import { useTestDatabase } from '../../support/db.ts';

const db = useTestDatabase();
const CONNECTION = 'conn-actionable';

describe('the failures a bookkeeper is shown first', () => {
  it('G23: bills without an accounting vendor come before the newer failures of their payments', async () => {
    // 24 bills failed (the cause), then 25 payments failed because their bill is not in the ERP.
    await db.sql`
      insert into sync_ledger (connection_id, object_id, sync_type, state, outcome, error_category, error_message, updated_at)
      select ${CONNECTION}, 'bill-' || n, 'BILL_SYNC', 'REPORTED', 'failure', 'user_actionable',
             'Action needed: Bill INV-' || n || ' has no accounting vendor', now() - interval '1 hour' + n * interval '1 second'
      from generate_series(1, 24) n`;
    await db.sql`
      insert into sync_ledger (connection_id, object_id, sync_type, state, outcome, error_category, error_message, updated_at)
      select ${CONNECTION}, 'bill-' || n, 'BILL_PAYMENT_SYNC', 'REPORTED', 'failure', 'user_actionable',
             'Action needed: the bill is not in the ERP; sync the bill first', now() - interval '1 minute' + n * interval '1 second'
      from generate_series(1, 25) n`;
    const shown = await recentActionableFailures(db.sql, CONNECTION);
    expect(shown).toHaveLength(20);
    expect(shown.every((f) => f.syncType === 'BILL_SYNC')).toBe(true);
    // Among the causes, newest first.
    expect(shown[0]!.objectId).toBe('bill-24');
  });
});
