import postgres, { type Sql } from 'postgres';

/** The session holding a kind lock ended while its run was going on (the database restarted). */
export class AdvisoryLockLostError extends Error {
  constructor(readonly lockName: string) {
    super(
      `the database session holding the lock ${lockName} ended (PostgreSQL restarted or the connection broke); ` +
        'the run stopped',
    );
    this.name = 'AdvisoryLockLostError';
  }
}

/**
 * A client of one session, to the same server, database and user as `sql`, that never renews
 * or pools its connection: the lock lives exactly as long as this session.
 */
function lockSession(sql: Sql, onClose: () => void): Sql {
  const o = sql.options;
  return postgres({
    // The parsed lists (several hosts are tried in turn); postgres() takes them as they are.
    host: o.host as unknown as string,
    port: o.port as unknown as number,
    path: o.path,
    database: o.database,
    user: o.user,
    // ParsedOptions types the password as null; at run time it is the configured one.
    pass: (o as unknown as { pass: string | (() => string | Promise<string>) | undefined }).pass,
    ssl: o.ssl,
    connect_timeout: o.connect_timeout,
    keep_alive: o.keep_alive,
    // With several hosts, the same server the pool writes to (a lock on a standby locks nothing).
    target_session_attrs: o.target_session_attrs,
    connection: { ...o.connection, application_name: 'ledgersync kind lock' },
    max: 1,
    // Never closed for being idle or old: closing the session would release the lock.
    idle_timeout: 0,
    max_lifetime: null,
    fetch_types: false,
    prepare: false,
    onnotice: () => {},
    onclose: onClose,
  });
}

/**
 * Runs fn while holding a session advisory lock named `name`, so only one sync of a kind per
 * connection runs at a time across every worker process. Returns { busy: true } without running
 * fn when another process holds it.
 *
 * The lock is held on a client of its own with one connection, created for this call and ended
 * after it (docs/decisions.md "Kind locks on a connection of their own"): not on a connection
 * reserved from the pool, because postgres.js 3.4.x kills the process when a reserved connection
 * is written to after the server dropped it. The lock dies with its session, so a killed process
 * never leaves it held. If the session ends while fn runs (PostgreSQL restarted), the lock is
 * gone: `lockLost` is aborted with an AdvisoryLockLostError so fn stops at its next step, and another
 * process may take the lock from then on.
 */
export async function withAdvisoryLock<T>(
  sql: Sql,
  name: string,
  fn: (lockLost: AbortSignal) => Promise<T>,
): Promise<{ busy: true } | { busy: false; value: T }> {
  const lost = new AbortController();
  let ending = false;
  const session = lockSession(sql, () => {
    if (!ending) lost.abort(new AdvisoryLockLostError(name));
  });
  try {
    const [row] = await session<
      { locked: boolean }[]
    >`select pg_try_advisory_lock(hashtext(${name})) as locked`;
    if (!row?.locked) return { busy: true };
    return { busy: false, value: await fn(lost.signal) };
  } finally {
    ending = true;
    // Ending the session releases the lock: the server closes the socket only after the backend
    // has exited, so once end() resolves the lock is free for the next run.
    await session.end({ timeout: 5 }).catch(() => undefined);
  }
}
