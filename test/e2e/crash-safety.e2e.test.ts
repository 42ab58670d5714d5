import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkExactlyOnce } from '../support/exactly-once.ts';
import { useTestRedis } from '../support/redis.ts';
import { useSyncWorld } from '../support/sync-world.ts';

const world = useSyncWorld();
const redis = useTestRedis();
const CHILD = fileURLToPath(new URL('../support/sync-child.ts', import.meta.url));

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
    await checkExactlyOnce(world);
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
    await checkExactlyOnce(world);
  }, 240_000);
});
