import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../../../src/app/index.ts';
import { AdvisoryLockLostError, withAdvisoryLock } from '../../../src/sync/advisory-lock.ts';
import { useTestDatabase } from '../../support/db.ts';
import { uniqueName } from '../../support/unique.ts';

/**
 * The kind lock lives on a session of its own (docs/decisions.md "Kind locks on a connection of
 * their own"). When that session ends under a run (the database restarted; here its backend is
 * terminated), the run is told at once, the lock is free for the next run, and the run ends with
 * an error a command reports as "PostgreSQL unavailable" (exit 69). Before, the lock sat on a
 * reserved pool connection, and unlocking it after the server dropped it killed the process.
 */
const db = useTestDatabase({ migrate: false });

/** Terminates the backends holding the session advisory lock `name` (hashtext of it, as bigint). */
async function terminateHolders(name: string): Promise<number> {
  const rows = await db.sql<{ terminated: boolean }[]>`
    select pg_terminate_backend(pid) as terminated from pg_locks
    where locktype = 'advisory' and granted and objsubid = 1
      and ((classid::bigint << 32) | objid::bigint) = hashtext(${name})::bigint`;
  return rows.filter((r) => r.terminated).length;
}

describe('withAdvisoryLock when its session ends', () => {
  it('aborts lockLost with AdvisoryLockLostError, frees the lock for the next run, and the run fails as database-unavailable', async () => {
    const name = uniqueName('ledgersync:test-lock:');
    let told: unknown = null;
    let release: () => void = () => undefined;
    let started: () => void = () => undefined;
    const holding = new Promise<void>((resolve) => {
      started = resolve;
    });
    const running = withAdvisoryLock(db.sql, name, async (lockLost) => {
      started();
      lockLost.addEventListener('abort', () => {
        told = lockLost.reason;
      });
      // The run waits (as for a platform page) until the test lets it check its signal.
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      lockLost.throwIfAborted();
      return 'finished';
    });

    // Held: another run of the kind is refused.
    await holding;
    expect(await withAdvisoryLock(db.sql, name, async () => 'second')).toEqual({ busy: true });
    expect(await terminateHolders(name)).toBe(1);
    await expect.poll(() => told, { timeout: 5_000 }).toBeInstanceOf(AdvisoryLockLostError);

    // The lock went with the session: the next run takes it while the first has not stopped yet.
    expect(await withAdvisoryLock(db.sql, name, async () => 'next')).toEqual({ busy: false, value: 'next' });

    release();
    const error = await running.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AdvisoryLockLostError);
    expect(isDatabaseUnavailable(error)).toBe(true);
    // The pool is untouched: its own connections still answer.
    expect(await db.sql`select 1 as n`).toEqual([{ n: 1 }]);
  });

  it('a run that ends normally releases the lock when it returns', async () => {
    const name = uniqueName('ledgersync:test-lock:');
    expect(await withAdvisoryLock(db.sql, name, async () => 1)).toEqual({ busy: false, value: 1 });
    expect(await withAdvisoryLock(db.sql, name, async () => 2)).toEqual({ busy: false, value: 2 });
    expect(await terminateHolders(name)).toBe(0);
  });
});
