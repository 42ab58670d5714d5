import { z } from 'zod';

/**
 * A JSON-RPC client for trytond 6.0: `common.db.login` once, then `model.<name>.<method>` calls
 * with a `Session` authorization header. An expired session (HTTP 401: Tryton drops a session
 * idle for 5 minutes and asks for a fresh one before posting) logs in again once and repeats the
 * call. The password and the session key never leave this file: faults carry Tryton's words only.
 */

export interface TrytonConnection {
  /** The server's root, e.g. http://127.0.0.1:8000/ (the database is appended). */
  url: string;
  database: string;
  user: string;
  password: string;
  /** Per call; a call that takes longer is a transient fault (default 60 s). */
  timeoutMs?: number;
}

/** How long a call may take before it is given up (TrytonConnection.timeoutMs). */
export const TRYTON_CALL_TIMEOUT_MS = 60_000;

export type FaultKind =
  | 'user_error' // a UserError: Tryton refused the data (message, description)
  | 'user_warning' // a UserWarning waiting for confirmation
  | 'concurrency' // the record changed meanwhile
  | 'login' // wrong user or password, or too many attempts
  | 'access' // HTTP 403 or a forbidden method
  | 'server' // an exception Tryton did not expect
  | 'unavailable'; // no answer: network, timeout, 5xx, 429

/** What went wrong in Tryton's own words (never the password or session key). */
export class TrytonFault extends Error {
  readonly kind: FaultKind;
  readonly method: string;
  readonly description: string;

  constructor(kind: FaultKind, method: string, message: string, description = '') {
    super(message);
    this.name = 'TrytonFault';
    this.kind = kind;
    this.method = method;
    this.description = description;
  }
}

const Envelope = z.object({
  id: z.unknown().optional(),
  result: z.unknown().optional(),
  error: z.unknown().optional(),
});

const UserErrorArgs = z.tuple([z.literal('UserError'), z.tuple([z.string(), z.string(), z.unknown()])]);
const UserWarningArgs = z.tuple([z.literal('UserWarning'), z.tuple([z.string(), z.string(), z.string()])]);
const ConcurrencyArgs = z.tuple([z.literal('ConcurrencyException'), z.string()]);
const LoginArgs = z.tuple([z.literal('LoginException'), z.unknown()]);
const ServerArgs = z.tuple([z.string(), z.unknown()]);
const LoginResult = z.tuple([z.number().int(), z.string().min(1)]);

/** Tryton's serialization conflicts surface as plain exceptions; a retry can succeed. */
const RETRYABLE_SERVER =
  /could not serialize|deadlock detected|lock timeout|could not obtain lock|connection/i;
/**
 * Answers that say the transaction was rolled back for a conflict with a concurrent one: two
 * first moves of a period both creating its journal-period, a strict sequence locked by another
 * posting. Repeating such a call is safe (nothing was written) and usually succeeds.
 */
const CONFLICT = /could not serialize|deadlock detected|could not obtain lock|only one journal per period/i;
const CONFLICT_RETRIES = 4;

export function isConflict(fault: TrytonFault): boolean {
  return (fault.kind === 'unavailable' || fault.kind === 'user_error') && CONFLICT.test(fault.message);
}

export function faultFromError(method: string, error: unknown): TrytonFault {
  const user = UserErrorArgs.safeParse(error);
  if (user.success) return new TrytonFault('user_error', method, user.data[1][0], user.data[1][1]);
  const warning = UserWarningArgs.safeParse(error);
  if (warning.success) return new TrytonFault('user_warning', method, warning.data[1][1], warning.data[1][0]);
  const concurrency = ConcurrencyArgs.safeParse(error);
  if (concurrency.success) return new TrytonFault('concurrency', method, concurrency.data[1]);
  if (LoginArgs.safeParse(error).success) return new TrytonFault('login', method, 'login required');
  const server = ServerArgs.safeParse(error);
  const text = server.success ? server.data[0] : JSON.stringify(error).slice(0, 500);
  return new TrytonFault(RETRYABLE_SERVER.test(text) ? 'unavailable' : 'server', method, text);
}

function unavailable(method: string, error: unknown): TrytonFault {
  const cause = (error as { cause?: { code?: unknown } } | null)?.cause;
  const code = typeof cause?.code === 'string' ? cause.code : '';
  const name = error instanceof Error ? error.name : 'Error';
  const what = name === 'TimeoutError' || name === 'AbortError' ? 'timed out' : code || 'no answer';
  return new TrytonFault('unavailable', method, `Tryton did not answer (${what})`);
}

export class TrytonRpc {
  private readonly endpoint: string;
  private session: { userId: number; key: string } | undefined;
  private loggingIn: Promise<void> | undefined;
  private nextId = 1;

  constructor(private readonly connection: TrytonConnection) {
    this.endpoint = `${connection.url.replace(/\/+$/, '')}/${encodeURIComponent(connection.database)}/`;
  }

  /** The Tryton user id of the session (logs in when needed). */
  async userId(): Promise<number> {
    await this.ensureSession();
    return this.session!.userId;
  }

  async call(method: string, params: unknown[]): Promise<unknown> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.callOnce(method, params);
      } catch (error) {
        if (!(error instanceof TrytonFault) || !isConflict(error) || attempt >= CONFLICT_RETRIES) throw error;
        await new Promise((r) => setTimeout(r, 50 * attempt + Math.random() * 100));
      }
    }
  }

  private async callOnce(method: string, params: unknown[]): Promise<unknown> {
    await this.ensureSession();
    try {
      return await this.post(method, params, this.authorization());
    } catch (error) {
      if (!(error instanceof SessionExpired)) throw error;
      this.session = undefined;
      await this.ensureSession();
      try {
        return await this.post(method, params, this.authorization());
      } catch (again) {
        if (again instanceof SessionExpired) throw new TrytonFault('login', method, 'session refused');
        throw again;
      }
    }
  }

  private authorization(): string {
    const { userId, key } = this.session!;
    const token = Buffer.from(`${this.connection.user}:${userId}:${key}`).toString('base64');
    return `Session ${token}`;
  }

  private async ensureSession(): Promise<void> {
    if (this.session) return;
    this.loggingIn ??= this.login().finally(() => {
      this.loggingIn = undefined;
    });
    await this.loggingIn;
  }

  private async login(): Promise<void> {
    const params = [this.connection.user, { password: this.connection.password }, 'en'];
    let result: unknown;
    try {
      result = await this.post('common.db.login', params, undefined);
    } catch (error) {
      // Tryton answers a wrong user or password with HTTP 401.
      if (error instanceof SessionExpired)
        throw new TrytonFault('login', 'common.db.login', 'Tryton refused the login');
      throw error;
    }
    const parsed = LoginResult.safeParse(result);
    if (!parsed.success) throw new TrytonFault('login', 'common.db.login', 'Tryton refused the login');
    this.session = { userId: parsed.data[0], key: parsed.data[1] };
  }

  private async post(method: string, params: unknown[], authorization: string | undefined) {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (authorization) headers.authorization = authorization;
    let response: Response;
    try {
      response = await fetch(this.endpoint, {
        method: 'POST',
        headers,
        body: JSON.stringify({ id: this.nextId++, method, params }),
        signal: AbortSignal.timeout(this.connection.timeoutMs ?? TRYTON_CALL_TIMEOUT_MS),
      });
    } catch (error) {
      throw unavailable(method, error);
    }
    const text = await response.text().catch(() => '');
    if (response.status === 401) throw new SessionExpired();
    if (response.status === 403) throw new TrytonFault('access', method, 'Tryton refused access');
    if (response.status === 429 || response.status >= 500) {
      throw new TrytonFault('unavailable', method, `Tryton answered HTTP ${response.status}`);
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new TrytonFault('server', method, `Tryton answered HTTP ${response.status} without JSON`);
    }
    const envelope = Envelope.safeParse(body);
    if (!envelope.success) throw new TrytonFault('server', method, 'Tryton answered a malformed envelope');
    if (envelope.data.error !== undefined && envelope.data.error !== null) {
      throw faultFromError(method, envelope.data.error);
    }
    return envelope.data.result;
  }
}

class SessionExpired extends Error {}
