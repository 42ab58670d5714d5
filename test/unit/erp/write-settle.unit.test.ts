import postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import { createErp } from '../../../src/erp/index.ts';

// How long each adapter gives a call whose caller was killed to land before its objects are
// written again (ErpAdapter.writeSettleMs, src/sync/sync-ledger/in-doubt.ts). Nothing here
// connects: the adapters only read their options.
const nowhere = 'http://127.0.0.1:1/';

describe('ErpAdapter.writeSettleMs: how long an interrupted call may still land', () => {
  it('Tryton: its call timeout, 60 s by default (Tryton carries out a call whose caller is gone)', async () => {
    const connection = { url: nowhere, database: 'books', user: 'sync', password: 'x' };
    const byDefault = createErp({ kind: 'tryton', ...connection });
    const quicker = createErp({ kind: 'tryton', ...connection, timeoutMs: 8_000 });
    expect([byDefault.writeSettleMs, quicker.writeSettleMs]).toEqual([60_000, 8_000]);
    await Promise.all([byDefault.close(), quicker.close()]);
  });

  it('hledger-web: its call timeout, 30 s by default (an add is looked up, not keyed)', async () => {
    const byDefault = createErp({ kind: 'hledger', url: nowhere });
    const quicker = createErp({ kind: 'hledger', url: nowhere, timeoutMs: 5_000 });
    expect([byDefault.writeSettleMs, quicker.writeSettleMs]).toEqual([30_000, 5_000]);
    await Promise.all([byDefault.close(), quicker.close()]);
  });

  it('the built-in ledger (a unique index) and the HTTP contract (its idempotency rule) need none', async () => {
    const sql = postgres('postgres://127.0.0.1:1/none', { max: 1 });
    const ledger = createErp({ kind: 'ledger', sql, schema: 'ledger' });
    const http = createErp({ kind: 'http', url: nowhere, token: 't' });
    expect([ledger.writeSettleMs ?? 0, http.writeSettleMs ?? 0]).toEqual([0, 0]);
    await Promise.all([ledger.close(), http.close()]);
    await sql.end({ timeout: 0 });
  });
});
