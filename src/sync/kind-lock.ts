import type { Sql } from 'postgres';

/**
 * Runs fn while holding a session advisory lock named `name`, so only one sync of a kind per
 * connection runs at a time across every worker process. Returns { busy: true } without running
 * fn when another process holds it. The lock lives on a reserved connection and dies with it,
 * so a killed worker never leaves it held.
 */
export async function withKindLock<T>(
  sql: Sql,
  name: string,
  fn: () => Promise<T>,
): Promise<{ busy: true } | { busy: false; value: T }> {
  const connection = await sql.reserve();
  try {
    const [row] = await connection<
      { locked: boolean }[]
    >`select pg_try_advisory_lock(hashtext(${name})) as locked`;
    if (!row?.locked) return { busy: true };
    try {
      return { busy: false, value: await fn() };
    } finally {
      await connection`select pg_advisory_unlock(hashtext(${name}))`;
    }
  } finally {
    connection.release();
  }
}
