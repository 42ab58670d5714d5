import { describe, expect, it } from 'vitest';
import {
  type AttributionScope,
  databaseTime,
  recordRequestedRead,
  rowsOfEndedRuns,
} from '../../../../src/sync/sync-button/attribute-rows.ts';
import { answerSyncRequest, recordSyncRequest } from '../../../../src/sync/sync-button/requests.ts';
import { SYNC_WINDOW_MS } from '../../../../src/sync/sync-button/window.ts';
import { claimRows, recordOutcomes } from '../../../../src/sync/sync-ledger/index.ts';
import { useTestDatabase } from '../../../support/db.ts';

/**
 * Rows a read gives to a request whose run has already ended (rowsOfEndedRuns): the run that read
 * them answers them under their own request's id (docs/platform.md G28) instead of leaving them to
 * that request's watchdog near the end of the 5-minute window (G29). Press and read times are set
 * by the test, as in sync-button-attribution-rule.integration.test.ts.
 */
const db = useTestDatabase();
let n = 0;

async function world() {
  const scope: AttributionScope = { connectionId: `ended-${++n}`, objectType: 'TRANSACTION' };
  const origin = (await databaseTime(db.sql)).getTime() - 60_000;
  const at = (ms: number) => new Date(origin + ms);
  const id = (name: string) => `${scope.connectionId}:${name}`;
  return {
    scope,
    id,
    press: (name: string, atMs: number, windowMs = SYNC_WINDOW_MS) =>
      recordSyncRequest(db.sql, {
        syncRequestId: id(name),
        connectionId: scope.connectionId,
        objectType: 'TRANSACTION',
        requestedAt: at(atMs),
        deadline: at(atMs + windowMs),
      }),
    read: (ids: string[], fromMs: number, toMs: number) =>
      recordRequestedRead(db.sql, scope, { objectIds: ids, startedAt: at(fromMs), finishedAt: at(toMs) }),
  };
}

describe('rows of requests whose run has ended (docs/platform.md G28, G29)', () => {
  it('a row given to a request its run already answered is returned under that request', async () => {
    const w = await world();
    await w.press('A', 0);
    await w.press('B', 500);
    // A's run answered before a read listed row r1; the read gives r1 to A, the earliest press.
    await answerSyncRequest(db.sql, w.id('A'));
    await w.read(['r1'], 1_000, 2_000);
    const ended = await rowsOfEndedRuns(db.sql, w.scope, w.id('B'));
    expect(Object.fromEntries(ended)).toEqual({ [w.id('A')]: ['r1'] });
    // The asking request's own rows are never in the answer.
    expect((await rowsOfEndedRuns(db.sql, w.scope, w.id('A'))).size).toBe(0);
  });

  it('a row whose answer is already on its way is left to it', async () => {
    const w = await world();
    await w.press('A', 0);
    await answerSyncRequest(db.sql, w.id('A'));
    await w.read(['r1', 'r2'], 1_000, 2_000);
    const base = {
      connectionId: w.scope.connectionId,
      syncType: 'TRANSACTION_SYNC',
      syncRequestId: w.id('A'),
    };
    await claimRows(db.sql, { ...base, objectIds: ['r1'] });
    await recordOutcomes(db.sql, w.scope.connectionId, 'TRANSACTION_SYNC', [
      { objectId: 'r1', ok: true, referenceId: 'JE-1' },
    ]);
    const ended = await rowsOfEndedRuns(db.sql, w.scope, w.id('B'));
    expect(Object.fromEntries(ended)).toEqual({ [w.id('A')]: ['r2'] });
  });

  it('requests answered by their watchdog, or about to close, are not answered again', async () => {
    const w = await world();
    await w.press('A', 0);
    await answerSyncRequest(db.sql, w.id('A'), 3);
    await w.read(['r1'], 1_000, 2_000);
    expect((await rowsOfEndedRuns(db.sql, w.scope, w.id('B'))).size).toBe(0);

    const v = await world();
    // A window that closes within the minute: a late answer would meet a closed request.
    await v.press('A', 0, 90_000);
    await answerSyncRequest(db.sql, v.id('A'));
    await v.read(['r1'], 1_000, 2_000);
    expect((await rowsOfEndedRuns(db.sql, v.scope, v.id('B'))).size).toBe(0);
  });

  it('a request still open is not an ended run: its own run answers its rows', async () => {
    const w = await world();
    await w.press('A', 0);
    await w.read(['r1'], 1_000, 2_000);
    expect((await rowsOfEndedRuns(db.sql, w.scope, w.id('B'))).size).toBe(0);
  });
});
