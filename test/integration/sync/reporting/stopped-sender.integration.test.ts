import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../../src/log.ts';
import { KIND_SPECS } from '../../../../src/sync/objects/index.ts';
import { sendFrozen } from '../../../../src/sync/reporting/index.ts';
import { runSyncButton } from '../../../../src/sync/sync-button/index.ts';
import { CLEAN_HISTORY, checkHistory } from '../../../support/history-check.ts';
import { useTestRedis } from '../../../support/redis.ts';
import { useSyncWorld } from '../../../support/sync-world.ts';
import { waitFor } from '../../support.ts';

/**
 * A worker process stopped (SIGSTOP: a GC pause, a frozen VM) while its result batch is on its
 * way to the platform holds that batch's lease and nothing else: a sync-button press of other
 * rows of the same kind is answered in full meanwhile (docs/platform.md G29), the stopped batch is
 * taken over once its lease lapses, and the stopped worker's late post is a replay (F15).
 */
const world = useSyncWorld({ settings: { transaction_sync_button_enabled: true } });
const redis = useTestRedis();
const CHILD = fileURLToPath(new URL('../../../support/sync-child.ts', import.meta.url));
const OBJECTS = { reimbursements: 0, bills: 0, transfers: 0, cashbacks: 0, vendor_creation_fraction: 0 };
let child: ChildProcess | undefined;

beforeAll(async () => {
  await world.seed({ seed: 61, transactions: 40, ready_fraction: 1, synced_fraction: 0, ...OBJECTS });
});

afterAll(() => {
  if (child && child.exitCode === null && child.signalCode === null) {
    child.kill('SIGCONT');
    child.kill('SIGKILL');
  }
});

/** The bulk transaction sync of a worker child; resolves with its exit. */
function startChild(): Promise<{ code: number | null; stderr: string }> {
  const spawned = spawn(process.execPath, ['--import', 'tsx/esm', CHILD], {
    env: {
      ...process.env,
      DATABASE_URL: world.db.url,
      SCHEMA: world.db.schema,
      LEDGER_SCHEMA: world.ledgerSchema,
      STUB_API_URL: world.stub.apiUrl,
      REDIS_URL: redis.url,
      REDIS_PREFIX: redis.prefix,
      CONNECTION_ID: world.connectionId,
      KINDS: 'transactions',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child = spawned;
  let stderr = '';
  spawned.stderr?.on('data', (d) => {
    stderr += d;
  });
  return new Promise((resolve) => spawned.on('exit', (code) => resolve({ code, stderr })));
}

async function readyIds(requestedToSync = false): Promise<string[]> {
  const listed = await world.platform.objects
    .ready(KIND_SPECS.transactions.list, { requestedToSync })
    .collect();
  return listed.values.map((t) => t.id);
}

describe('a worker stopped while its result batch is on its way', () => {
  it('G29: a press is answered in full while the stopped worker holds its lease; its late post is a replay (F15)', async () => {
    const readyAtStart = await readyIds();
    // The child's result post stays on its way long enough to stop the child in the middle of it.
    await world.control('PUT', '/__stub/faults', {
      routes: { 'POST /accounting/syncs': { latency_ms: 2_500 } },
    });
    const exited = startChild();
    const [leased] = await waitFor(
      async () => {
        const rows = await world.db.sql<{ id: string }[]>`
          select id from result_batches where state = 'FROZEN' and lease_owner is not null`;
        return rows.length > 0 ? rows : null;
      },
      { timeoutMs: 45_000, intervalMs: 20, what: "the child's result batch to be on its way" },
    );
    // Let the post leave the child, then stop it mid-post.
    await new Promise((resolve) => setTimeout(resolve, 300));
    child!.kill('SIGSTOP');
    await world.control('PUT', '/__stub/faults', {});

    // New transactions, pressed: same kind and sync type as the stopped batch, other rows.
    await world.seed({
      append: true,
      seed: 62,
      transactions: 6,
      ready_fraction: 1,
      synced_fraction: 0,
      ...OBJECTS,
    });
    const before = new Set(readyAtStart);
    const fresh = (await readyIds()).filter((id) => !before.has(id));
    expect(fresh.length).toBeGreaterThan(0);
    const press = await world.control<{ sync_request_id: string; object_ids: string[] }>(
      'POST',
      '/__stub/sync-button',
      { object_type: 'TRANSACTION', object_ids: fresh },
    );
    const answer = await runSyncButton(
      {
        sql: world.db.sql,
        erp: world.erp,
        platform: world.platform,
        syncPlatform: world.syncPlatform,
        log: silentLogger,
      },
      {
        connectionId: world.connectionId,
        objectType: 'TRANSACTION',
        syncRequestId: press.sync_request_id,
        deadline: new Date(Date.now() + 300_000),
      },
    );
    expect(answer.outcome).toBe('answered');
    // Every pressed row has its answer: none is still requested, none expired.
    const stillRequested = new Set(await readyIds(true));
    expect(press.object_ids.filter((id) => stillRequested.has(id))).toEqual([]);
    const request = await world.control<{ expired_rows: number }>(
      'GET',
      `/__stub/sync-requests/${press.sync_request_id}`,
    );
    expect(request.expired_rows).toBe(0);
    // The stopped batch was left to its holder, untouched.
    const [stopped] = await world.db.sql<{ state: string }[]>`
      select state from result_batches where id = ${leased!.id}`;
    expect(stopped?.state).toBe('FROZEN');

    // A minute on (the lease's length, RESULT_BATCH_LEASE_MS): the lease has lapsed, and the next
    // sender takes the batch over and posts it exactly as frozen.
    await world.db.sql`update result_batches set lease_until = now() where id = ${leased!.id}`;
    const report = {
      sql: world.db.sql,
      platform: world.syncPlatform,
      connectionId: world.connectionId,
      log: silentLogger,
    };
    const taken = await sendFrozen(report, { syncTypes: ['TRANSACTION_SYNC'] });
    expect(taken.batches).toBe(1);

    // The stopped worker resumes: its post's answer (or its retry, a replay) finds the batch
    // acknowledged, and it ends its run as usual.
    child!.kill('SIGCONT');
    const { code, stderr } = await exited;
    expect(code, stderr).toBe(0);
    const history = await checkHistory({
      control: world.control,
      sql: world.db.sql,
      ledgerSchema: world.ledgerSchema,
      readyAtStart: [...readyAtStart, ...press.object_ids],
    });
    expect(history).toEqual(CLEAN_HISTORY);
    const [left] = await world.db.sql<{ n: number }[]>`
      select count(*)::int as n from result_batches where state = 'FROZEN'`;
    expect(left?.n).toBe(0);
    const clock = await world.control<{ expired_rows: number }>('POST', '/__stub/clock', {
      advance_ms: 301_000,
    });
    expect(clock.expired_rows).toBe(0);
  }, 120_000);
});
