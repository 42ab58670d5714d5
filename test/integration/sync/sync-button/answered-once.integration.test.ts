import { describe, expect, it } from 'vitest';
import { claimRows, recordOutcomes } from '../../../../src/sync/sync-ledger/index.ts';
import { useTestDatabase } from '../../../support/db.ts';

/**
 * docs/platform.md G28: a result answers a requested row. The watchdog answers the rows it already
 * knows while the run goes on reading and writing, so a run may come to a page it read before the
 * watchdog's temporary failure for those rows was posted. Its claim must not take them again under
 * the same request (a second result for the row); a later request, or a regular sync, still may.
 */
const db = useTestDatabase();
let n = 0;

async function failedAndReported(syncRequestId: string) {
  const connectionId = `answered-once-${++n}`;
  const base = { connectionId, syncType: 'TRANSACTION_SYNC', objectIds: ['t1'], syncRequestId };
  expect(await claimRows(db.sql, base)).toEqual(['t1']);
  await recordOutcomes(db.sql, connectionId, 'TRANSACTION_SYNC', [
    { objectId: 't1', ok: false, category: 'transient', message: 'Temporary problem: too slow' },
  ]);
  await db.sql`
    update sync_ledger set state = 'REPORTED', platform_status = 'FAILED'
    where connection_id = ${connectionId} and object_id = 't1'`;
  return base;
}

describe('a row answered under a sync request', () => {
  it('docs/platform.md G28: a failure already posted under the request is not claimed again by that request', async () => {
    const base = await failedAndReported('R1');
    expect(await claimRows(db.sql, base)).toEqual([]);
  });

  it('docs/platform.md G28: a later press, or a regular sync, claims the failed row again', async () => {
    const base = await failedAndReported('R1');
    expect(await claimRows(db.sql, { ...base, syncRequestId: 'R2' })).toEqual(['t1']);
    const other = await failedAndReported('R1');
    expect(await claimRows(db.sql, { ...other, syncRequestId: undefined })).toEqual(['t1']);
  });
});
