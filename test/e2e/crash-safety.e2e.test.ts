import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { useTestRedis } from '../support/redis.ts';
import { useSyncWorld } from '../support/sync-world.ts';

const world = useSyncWorld();
const redis = useTestRedis();
const CHILD = fileURLToPath(new URL('../support/sync-child.ts', import.meta.url));

interface Effects {
  arrivals: { route: string; status: number }[];
  summary: { synced_more_than_once: unknown[] };
}

/** Runs the sync child; kills it with SIGKILL after killAfterMs (if given). Resolves its exit. */
function runChild(
  killAfterMs?: number,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  const env = {
    ...process.env,
    DATABASE_URL: world.db.url,
    SCHEMA: world.db.schema,
    LEDGER_SCHEMA: world.ledgerSchema,
    STUB_API_URL: world.stub.apiUrl,
    REDIS_URL: redis.url,
    REDIS_PREFIX: redis.prefix,
    CONNECTION_ID: world.connectionId,
    KINDS: 'transactions,bills',
  };
  const child = spawn(process.execPath, ['--import', 'tsx/esm', CHILD], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  const timer = killAfterMs === undefined ? null : setTimeout(() => child.kill('SIGKILL'), killAfterMs);
  return new Promise((resolve) =>
    child.on('exit', (code, signal) => {
      if (timer) clearTimeout(timer);
      resolve({ code, signal, stderr });
    }),
  );
}

async function checkExactlyOnce(): Promise<void> {
  const { sql } = world.db;
  const pending =
    await sql`select state, count(*)::int as n from sync_ledger where state <> 'REPORTED' group by state`;
  expect(pending, 'nothing left pending in the sync ledger').toEqual([]);
  const frozen = await sql`select count(*)::int as n from result_batches where state <> 'ACKED'`;
  expect(frozen[0]?.n, 'every result batch acknowledged').toBe(0);
  const effects = await world.control<Effects>(
    'GET',
    '/__stub/effects?include=arrivals&summary=true&limit=100000',
  );
  expect(effects.summary.synced_more_than_once, 'marked on the platform at most once').toEqual([]);
  const conflicts = effects.arrivals.filter((a) => a.route.includes('/accounting/syncs') && a.status === 400);
  expect(conflicts, 'no idempotency key reused with a different body (7005)').toEqual([]);
  const duplicates = await sql`
    select p.kind, p.object_id, count(*)::int as n
    from ${sql(world.ledgerSchema)}.postings p group by p.kind, p.object_id having count(*) > 1`;
  expect(duplicates, 'each object in the ERP once').toEqual([]);
  const reported = await sql`select count(*)::int as n from sync_ledger where outcome = 'success'`;
  const posted =
    await sql`select count(*)::int as n from ${sql(world.ledgerSchema)}.postings where kind in ('card_transaction', 'bill', 'bill_payment')`;
  expect(posted[0]?.n, 'every success reported is one ERP posting').toBe(reported[0]?.n);
}

describe('crash safety', () => {
  it('kill -9 at random moments during a 5,000-object sync, restart each time: exactly once in the ERP and on the platform', async () => {
    await world.seed({
      seed: 21,
      transactions: 5000,
      reimbursements: 0,
      transfers: 0,
      cashbacks: 0,
      bills: 300,
      ready_fraction: 1,
    });
    let kills = 0;
    for (let i = 0; i < 12; i++) {
      const result = await runChild(900 + Math.floor(Math.random() * 2500));
      if (result.signal === 'SIGKILL') kills++;
      else expect(result.code, result.stderr).toBe(0);
    }
    expect(kills).toBeGreaterThanOrEqual(8);
    const final = await runChild();
    expect(final.code, final.stderr).toBe(0);
    await checkExactlyOnce();
  }, 240_000);

  it('with 10% platform 5xx and "commit then drop the connection" faults, the same holds', async () => {
    await world.seed({
      seed: 22,
      append: true,
      transactions: 1500,
      reimbursements: 0,
      transfers: 0,
      cashbacks: 0,
      bills: 100,
      ready_fraction: 1,
    });
    await world.control('PUT', '/__stub/faults', {
      seed: 5,
      routes: { '*': { error_rate: 0.1, drop_after_commit_rate: 0.1 } },
    });
    for (let i = 0; i < 3; i++) {
      const result = await runChild(1500 + Math.floor(Math.random() * 1500));
      if (result.signal !== 'SIGKILL') expect(result.code, result.stderr).toBe(0);
    }
    const final = await runChild();
    expect(final.code, final.stderr).toBe(0);
    await world.control('PUT', '/__stub/faults', {});
    await checkExactlyOnce();
  }, 240_000);
});
