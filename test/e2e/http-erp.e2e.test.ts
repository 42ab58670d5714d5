import { type ChildProcess, spawn } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, runCli } from '../support/cli.ts';
import { cliEnv, startErpServe } from '../support/erp-serve.ts';
import { checkExactlyOnce } from '../support/exactly-once.ts';
import { useTestRedis } from '../support/redis.ts';
import { useSyncWorld, worldEnv } from '../support/sync-world.ts';

const world = useSyncWorld();
const redis = useTestRedis();
const TOKEN = 'e2e-erp-token-0123456789';
const SECRET = 'e2e-erp-hmac-secret-0123456789';

let service: ChildProcess | undefined;
afterAll(() => {
  service?.kill('SIGTERM');
});

/** `ledgersync erp serve --port 0` over the world's seeded ledger; resolves its URL. */
async function startWorldErpServe(): Promise<string> {
  const started = await startErpServe({
    ...worldEnv(world, redis),
    ERP: 'ledger',
    ERP_HTTP_TOKEN: TOKEN,
    ERP_HTTP_HMAC_SECRET: SECRET,
  });
  service = started.child;
  return started.url;
}

let erpUrl = '';
const httpEnv = () => ({
  ...worldEnv(world, redis),
  ERP: 'http',
  ERP_HTTP_URL: erpUrl,
  ERP_HTTP_TOKEN: TOKEN,
  ERP_HTTP_HMAC_SECRET: SECRET,
});

/**
 * `sync all` with ERP=http. With `killMidBatch`, SIGKILLed as soon as the served ledger holds
 * more postings than before: the kill lands while the run is posting, not before or after.
 */
function runSyncAll(
  killMidBatch = false,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  const child = spawn(process.execPath, [BIN, 'sync', 'all', '--json'], {
    env: cliEnv(httpEnv()),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  let exited = false;
  const watch = async () => {
    const before = await postings();
    while (!exited) {
      if ((await postings()) > before) {
        child.kill('SIGKILL');
        return;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  if (killMidBatch) void watch();
  return new Promise((resolve) =>
    child.on('exit', (code, signal) => {
      exited = true;
      resolve({ code, signal, stderr });
    }),
  );
}

async function postings(): Promise<number> {
  const [row] = await world.db
    .sql`select count(*)::int as n from ${world.db.sql(world.ledgerSchema)}.postings`;
  return row!.n as number;
}

describe('ERP=http end to end (erp serve over the ledger, sync all through the real binary)', () => {
  it('sync all posts through the HTTP contract into the served ledger; the books balance', async () => {
    erpUrl = await startWorldErpServe();
    await world.seed({
      seed: 51,
      transactions: 150,
      reimbursements: 0,
      transfers: 0,
      cashbacks: 0,
      bills: 40,
      ready_fraction: 1,
    });
    const result = await runCli(['sync', 'all', '--json'], httpEnv(), 180_000);
    expect([0, 3], result.stderr).toContain(result.code);
    expect(await postings()).toBeGreaterThan(100);
    await checkExactlyOnce(world);
    const balance = await runCli(['erp', 'trial-balance', '--json'], {
      ...worldEnv(world, redis),
      ERP: 'ledger',
    });
    expect(balance.code, balance.stderr).toBe(0);
  }, 240_000);

  it('kill -9 of sync all mid-batch, then a rerun: nothing posted twice, marked once, books balanced', async () => {
    await world.seed({
      seed: 52,
      append: true,
      transactions: 1500,
      reimbursements: 0,
      transfers: 0,
      cashbacks: 0,
      bills: 100,
      ready_fraction: 1,
    });
    let kills = 0;
    for (let i = 0; i < 3; i++) {
      const result = await runSyncAll(true);
      if (result.signal === 'SIGKILL') kills++;
      else expect([0, 3], result.stderr).toContain(result.code);
    }
    expect(kills, 'at least one run was killed while posting').toBeGreaterThanOrEqual(1);
    const final = await runSyncAll();
    expect([0, 3], final.stderr).toContain(final.code);
    await checkExactlyOnce(world);
    const balance = await runCli(['erp', 'trial-balance', '--json'], {
      ...worldEnv(world, redis),
      ERP: 'ledger',
    });
    expect(balance.code, balance.stderr).toBe(0);
  }, 300_000);
});
