import { describe, expect, it } from 'vitest';
import type { ErpAdapter, ErpWrite, WriteResult } from '../../../../src/erp/index.ts';
import { silentLogger } from '../../../../src/log.ts';
import { applyPage } from '../../../../src/sync/objects/apply-page.ts';
import type { PlannedItem } from '../../../../src/sync/objects/plan-page.ts';
import { claimRows, inDoubtForMs, recordOutcomes } from '../../../../src/sync/sync-ledger/index.ts';
import { useTestDatabase } from '../../../support/db.ts';

const db = useTestDatabase();
let n = 0;
const conn = () => `in-doubt-${++n}`;
const T = 'TRANSACTION_SYNC';
const MINUTE = 60_000;

/** An ERP that answers every write and notes how long after `since` (the database's clock) it was called. */
function recordingErp(writeSettleMs: number | undefined, since: () => Date) {
  const calls: { ids: string[]; msAfter: number }[] = [];
  const erp = {
    name: 'recording',
    ...(writeSettleMs === undefined ? {} : { writeSettleMs }),
    async postMany(items: readonly ErpWrite[]): Promise<WriteResult[]> {
      const [row] = await db.sql<{ ms: number }[]>`
        select (extract(epoch from clock_timestamp() - ${since()}::timestamptz) * 1000)::float8 as ms`;
      calls.push({ ids: items.map((i) => i.objectId), msAfter: row!.ms });
      return items.map((i) => ({
        ok: true,
        kind: i.kind,
        objectId: i.objectId,
        referenceId: `JE-${i.objectId}`,
        replayed: false,
      }));
    },
  } as unknown as ErpAdapter;
  return { erp, calls };
}

const item = (objectId: string): PlannedItem => ({
  objectId,
  syncType: T,
  write: { kind: 'card_transaction', objectId } as ErpWrite,
});

async function claimedAt(connectionId: string, objectId: string): Promise<Date> {
  const [row] = await db.sql<{ updated_at: Date }[]>`
    select updated_at from sync_ledger where connection_id = ${connectionId} and object_id = ${objectId}`;
  return row!.updated_at;
}

describe('objects an interrupted run was writing (sync-ledger/in-doubt.ts)', () => {
  it('a row left PENDING by an interrupted run is written again only writeSettleMs after its claim', async () => {
    const c = conn();
    // The interrupted run: it claimed the object and died while the ERP worked on the write.
    await claimRows(db.sql, { connectionId: c, syncType: T, objectIds: ['a'] });
    const claim = await claimedAt(c, 'a');
    const { erp, calls } = recordingErp(1_500, () => claim);

    const counts = await applyPage({ sql: db.sql, erp, connectionId: c, log: silentLogger }, [item('a')]);

    expect(counts).toMatchObject({ claimed: 1, posted: 1 });
    expect(calls).toHaveLength(1);
    // Both ends are read on the database's clock; 100 ms spare for a step of the host's clock.
    expect(calls[0]!.msAfter).toBeGreaterThanOrEqual(1_400);
    // The wait came before the claim, so the claim is dated when the write began.
    expect((await claimedAt(c, 'a')).getTime()).toBeGreaterThan(claim.getTime());
  });

  it('a PENDING row claimed just now is in doubt for about writeSettleMs', async () => {
    const c = conn();
    await claimRows(db.sql, { connectionId: c, syncType: T, objectIds: ['a', 'b'] });
    const wait = await inDoubtForMs(db.sql, { connectionId: c, syncType: T, objectIds: ['a', 'x'] }, MINUTE);
    expect(wait).toBeGreaterThan(MINUTE - 10_000);
    expect(wait).toBeLessThanOrEqual(MINUTE);
  });

  it('no wait for new objects, known outcomes, old claims, other connections or sync types', async () => {
    const c = conn();
    await claimRows(db.sql, { connectionId: c, syncType: T, objectIds: ['known', 'old', 'fresh'] });
    await recordOutcomes(db.sql, c, T, [{ objectId: 'known', ok: true, referenceId: 'JE-1' }]);
    await db.sql`update sync_ledger set updated_at = now() - interval '2 minutes'
                 where connection_id = ${c} and object_id = 'old'`;
    const ask = (request: { connectionId?: string; syncType?: string; objectIds: string[] }) =>
      inDoubtForMs(db.sql, { connectionId: c, syncType: T, ...request }, MINUTE);

    expect(await ask({ objectIds: ['new-object'] })).toBe(0);
    expect(await ask({ objectIds: ['known'] })).toBe(0);
    expect(await ask({ objectIds: ['old'] })).toBe(0);
    expect(await ask({ objectIds: ['fresh'], connectionId: conn() })).toBe(0);
    expect(await ask({ objectIds: ['fresh'], syncType: 'BILL_SYNC' })).toBe(0);
    expect(await ask({ objectIds: [] })).toBe(0);
    // The same row, asked for the right connection and type: in doubt.
    expect(await ask({ objectIds: ['fresh', 'old'] })).toBeGreaterThan(0);
  });

  it('an ERP that holds each key itself (no writeSettleMs) is never waited for', async () => {
    const c = conn();
    await claimRows(db.sql, { connectionId: c, syncType: T, objectIds: ['a'] });
    expect(await inDoubtForMs(db.sql, { connectionId: c, syncType: T, objectIds: ['a'] }, 0)).toBe(0);
    const claim = await claimedAt(c, 'a');
    const { erp, calls } = recordingErp(undefined, () => claim);
    await applyPage({ sql: db.sql, erp, connectionId: c, log: silentLogger }, [item('a')]);
    expect(calls.map((call) => call.ids)).toEqual([['a']]);
  });
});
