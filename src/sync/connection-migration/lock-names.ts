import type { Sql } from 'postgres';
import { withAdvisoryLock } from '../advisory-lock.ts';
import { mirrorLockName } from '../mirror/index.ts';
import { OBJECT_KINDS, objectSyncLockName } from '../objects/index.ts';

/**
 * One `migrate prepare` at a time per deployment: two would race for the same steps. Advisory
 * locks are shared by the whole database, and deployments that share one work in schemas of
 * their own (DATABASE_SCHEMA), so the lock is named after the schema.
 */
export async function migrationLockName(sql: Sql): Promise<string> {
  const [row] = await sql<{ schema: string }[]>`select current_schema() as schema`;
  return `ledgersync:migration:${row?.schema ?? ''}`;
}

/** Every lock a run of work for `connectionId` holds: one per object kind, and its chart mirror. */
export function connectionLockNames(connectionId: string): string[] {
  return [
    ...OBJECT_KINDS.map((kind) => objectSyncLockName(connectionId, kind)),
    mirrorLockName(connectionId),
  ];
}

/**
 * Runs fn while holding every lock in `names` (each on a session of its own, src/sync/advisory-lock.ts);
 * `busy` without running fn as soon as one is held elsewhere. Those taken so far are released.
 */
export async function withLocks<T>(
  sql: Sql,
  names: readonly string[],
  fn: () => Promise<T>,
): Promise<{ busy: true } | { busy: false; value: T }> {
  const [first, ...rest] = names;
  if (first === undefined) return { busy: false, value: await fn() };
  const outer = await withAdvisoryLock(sql, first, () => withLocks(sql, rest, fn));
  return outer.busy ? outer : outer.value;
}
