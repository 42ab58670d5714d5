import type { Sql, TransactionSql } from 'postgres';
import { AdvisoryLockLostError } from '../sync/advisory-lock.ts';

/**
 * PostgreSQL going away under a running process: how to recognise it, and transactions that
 * survive it. See docs/decisions.md "Kind locks on a connection of their own".
 */

/** postgres.js's own connection errors, and the socket errors it passes on. */
const CONNECTION_CODES = new Set([
  'CONNECTION_CLOSED',
  'CONNECTION_DESTROYED',
  'CONNECTION_ENDED',
  'CONNECT_TIMEOUT',
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);
/**
 * SQLSTATE of a server that will not serve us now: admin_shutdown, crash_shutdown,
 * cannot_connect_now (starting up, shutting down), too_many_connections (53300: max_connections
 * reached, which a retry once others have disconnected gets past). postgres.js puts the SQLSTATE
 * on its PostgresError as `code`.
 */
const REFUSING_STATES = new Set(['57P01', '57P02', '57P03', '53300']);

/**
 * True when `error` says the database could not be reached or dropped the connection: a socket
 * error, a closed connection, a server shutting down or still starting (SQLSTATE 57P01-57P03),
 * one with no connection left (53300), any connection exception (class 08), or a kind lock whose
 * session ended. Only the error itself
 * is read, never its cause: an HTTP failure caused by ECONNREFUSED is not the database's.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error instanceof AdvisoryLockLostError) return true;
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'string') return false;
  return CONNECTION_CODES.has(code) || REFUSING_STATES.has(code) || /^08[0-9A-Z]{3}$/.test(code);
}

/**
 * host:port of a DATABASE_URL, never its credentials: a server's refusal (53300, 57P03) does not
 * say which server refused. A Unix socket URL names its directory (`?host=/run/postgresql`).
 */
export function databaseHost(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    const host = url.hostname || url.searchParams.get('host');
    if (!host) return 'DATABASE_URL';
    return host.startsWith('/') ? host : `${host}:${url.port || '5432'}`;
  } catch {
    return 'DATABASE_URL';
  }
}

/**
 * The one line a command prints when the database went away or refused it (README "Exit codes":
 * 69), naming the database's host when the caller knows DATABASE_URL.
 */
export function databaseUnavailableMessage(error: unknown, databaseUrl?: string): string {
  const detail = error instanceof Error ? error.message : String(error);
  const which = databaseUrl ? `PostgreSQL at ${databaseHost(databaseUrl)}` : 'PostgreSQL';
  return (
    `${which} is unavailable (${detail}); what was done before it went away is kept. ` +
    'Run the command again once the database is back.'
  );
}

type BeginCallback = (tx: TransactionSql) => unknown;

/** How long a connection error inside a transaction waits to learn whether its session ended. */
const CLOSE_GRACE_MS = 1_000;
const GUARDED = Symbol('ledgersync.guardedTransactions');

/** A refused statement: a rejected promise already marked handled, so one left unawaited is no crash. */
function refused(): Promise<never> {
  const error = Object.assign(new Error('write CONNECTION_CLOSED (the transaction lost its connection)'), {
    code: 'CONNECTION_CLOSED',
  });
  const promise = Promise.reject(error);
  promise.catch(() => undefined);
  return promise;
}

const isTemplate = (first: unknown): boolean =>
  Array.isArray(first) && Array.isArray((first as unknown as TemplateStringsArray).raw);

/**
 * A transaction's sql that refuses new statements once its connection has closed. postgres.js
 * 3.4.x writes a statement on a transaction's connection without looking at the socket, and
 * after a close that write throws from a timer (`Cannot read properties of null (reading
 * 'write')`), out of reach of any catch. Helpers (`tx(rows)`, `tx.json(…)`) write nothing and
 * are left alone.
 */
function refuseAfterClose(tx: TransactionSql, closed: () => boolean): TransactionSql {
  return new Proxy(tx, {
    apply(target, self, args) {
      if (closed() && isTemplate(args[0])) return refused();
      return Reflect.apply(target, self, args);
    },
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function' || !['unsafe', 'file', 'savepoint'].includes(String(property)))
        return value;
      return (...args: unknown[]) => (closed() ? refused() : Reflect.apply(value, target, args));
    },
  });
}

/**
 * sql.begin that never lets postgres.js write to a connection that closed mid-transaction.
 * postgres.js answers a failed callback with ROLLBACK and a finished one with COMMIT, both on
 * the transaction's own connection; once PostgreSQL has dropped that connection, either write
 * kills the process. So when the connection is gone, the callback is left pending instead of
 * failing or returning (nothing is written; the server has rolled the transaction back already),
 * and the caller gets the CONNECTION_CLOSED that postgres.js rejects begin() with on the close.
 */
function safeBegin(sql: Sql, ...args: [BeginCallback] | [string, BeginCallback]): Promise<unknown> {
  const [options, fn] = args.length === 1 ? ['', args[0]] : args;
  let closed = false;
  let markClosed: () => void = () => undefined;
  const closing = new Promise<void>((resolve) => {
    markClosed = resolve;
  });
  const pendingForever = () => new Promise<never>(() => undefined);
  const run = sql.begin(options, async (tx) => {
    let value: unknown;
    try {
      value = await fn(refuseAfterClose(tx, () => closed));
    } catch (error) {
      if (closed) return pendingForever();
      if (isDatabaseUnavailable(error)) {
        // The close that rejected this statement reaches begin() a few ticks later.
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          closing,
          new Promise((resolve) => (timer = setTimeout(resolve, CLOSE_GRACE_MS))),
        ]);
        clearTimeout(timer);
        if (closed) return pendingForever();
      }
      throw error;
    }
    if (closed) return pendingForever();
    return value;
  });
  // While the callback runs, begin() settles only when its connection closes.
  run.catch(() => {
    closed = true;
    markClosed();
  });
  return run;
}

/**
 * The pool with transactions that survive a database restart (safeBegin); everything else is
 * the pool itself. Plain queries are safe as they are: the pool hands a closed connection a new
 * socket before it writes. Wrapping twice returns the same wrapper.
 */
export function guardTransactions(sql: Sql): Sql {
  if ((sql as unknown as Record<symbol, unknown>)[GUARDED]) return sql;
  const begin = (...args: [BeginCallback] | [string, BeginCallback]) => safeBegin(sql, ...args);
  return new Proxy(sql, {
    get(target, property, receiver) {
      if (property === GUARDED) return true;
      if (property === 'begin') return begin;
      return Reflect.get(target, property, receiver);
    },
  });
}
