import { readFileSync } from 'node:fs';
import postgres from 'postgres';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NoConnectionError, PlatformBaseUrlError, PlatformNotConfiguredError } from '../../src/app/index.ts';
import { reportFailure } from '../../src/commands/report-failure.ts';
import { CommandError } from '../../src/commands/runtime.ts';
import { ConfigError } from '../../src/config.ts';
import { EXIT, ExpectedFailure } from '../../src/exit-codes.ts';
import { PlatformUnreachableError, RedisMissingError, RedisUnavailableError } from '../../src/infra/index.ts';
import { silentLogger } from '../../src/log.ts';
import { NetworkError, type PlatformError, platformErrorFor } from '../../src/platform/index.ts';
import { type ListenFailedError, listenFailure } from '../../src/server/index.ts';

const REDIS_URL = 'redis://worker:hunter2-redis-pw@127.0.0.1:6390';
const PLATFORM_URL = 'http://127.0.0.1:4010/developer/v1';
const TOKEN = 'svc_business_tok_9f8e7d6c5b4a3210abcdef';

/** What a command leaves on stderr and the code it exits with, for one error met by withRuntime. */
function reported(error: unknown, urls: { redisUrl?: string; platformUrl?: string } = {}) {
  const writes: string[] = [];
  const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    writes.push(String(chunk));
    return true;
  });
  try {
    const platformUrl = 'platformUrl' in urls ? urls.platformUrl : PLATFORM_URL;
    const code = reportFailure(error, silentLogger, urls.redisUrl ?? REDIS_URL, platformUrl);
    return { code, writes, stderr: writes.join('') };
  } finally {
    spy.mockRestore();
  }
}

/** One write, one `ledgersync: ` message ending in a newline, and no stack frame. */
function expectOneMessage(out: ReturnType<typeof reported>, message: string) {
  expect(out.writes).toHaveLength(1);
  expect(out.stderr).toBe(`ledgersync: ${message}\n`);
  expect(out.stderr).not.toMatch(/^\s+at /m);
}

function expectOneLine(out: ReturnType<typeof reported>) {
  expect(out.writes).toHaveLength(1);
  expect(out.stderr.startsWith('ledgersync: ')).toBe(true);
  expect(out.stderr.split('\n')).toHaveLength(2);
  expect(out.stderr.endsWith('\n')).toBe(true);
  expect(out.stderr).not.toMatch(/^\s+at /m);
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('exit codes (README "Exit codes")', () => {
  it('EXIT holds exactly the codes of the README "Exit codes" table', () => {
    const section = readFileSync('README.md', 'utf8').split('## Exit codes')[1]!.split('\n## ')[0]!;
    const documented = [...section.matchAll(/^\| (\d+) \|/gm)].map((m) => Number(m[1]));
    expect(Object.values(EXIT).sort((a, b) => a - b)).toEqual(documented.sort((a, b) => a - b));
  });

  const expected: Array<{ name: string; error: () => ExpectedFailure; code: number; oneLine: boolean }> = [
    { name: 'CommandError (default)', error: () => new CommandError('no such run'), code: 1, oneLine: true },
    {
      name: 'CommandError (bad arguments)',
      error: () => new CommandError('--since: not a date', EXIT.usage),
      code: 2,
      oneLine: true,
    },
    {
      name: 'CommandError (another process holds the work)',
      error: () => new CommandError('another replay is running', EXIT.unavailable),
      code: 69,
      oneLine: true,
    },
    {
      name: 'ConfigError',
      error: () => new ConfigError(['REDIS_URL: Invalid url', 'ERP: Invalid enum value']),
      code: 78,
      oneLine: false,
    },
    {
      name: 'PlatformNotConfiguredError',
      error: () => new PlatformNotConfiguredError(),
      code: 78,
      oneLine: true,
    },
    {
      name: 'PlatformBaseUrlError',
      error: () =>
        new PlatformBaseUrlError('http://127.0.0.1:4010', 'must end in /developer/v1 (got path /)'),
      code: 78,
      oneLine: true,
    },
    {
      name: 'ListenFailedError (SERVER_PORT in use)',
      error: () =>
        listenFailure(Object.assign(new Error('listen EADDRINUSE'), { code: 'EADDRINUSE' }), {
          host: '127.0.0.1',
          port: 8080,
        }) as ListenFailedError,
      code: 78,
      oneLine: true,
    },
    { name: 'NoConnectionError', error: () => new NoConnectionError(), code: 78, oneLine: true },
    {
      name: 'NoConnectionError (PLATFORM_CONNECTION_ID unknown)',
      error: () => new NoConnectionError('4d9b1f0c-0000-4000-8000-000000000000'),
      code: 78,
      oneLine: true,
    },
    {
      name: 'PlatformUnreachableError',
      error: () => new PlatformUnreachableError('127.0.0.1:1', 'connection refused'),
      code: 69,
      oneLine: true,
    },
    { name: 'RedisMissingError', error: () => new RedisMissingError(), code: 69, oneLine: false },
    {
      name: 'RedisUnavailableError (unreachable)',
      error: () =>
        new RedisUnavailableError('127.0.0.1:6390', new Error('connect ECONNREFUSED 127.0.0.1:6390')),
      code: 69,
      oneLine: true,
    },
    {
      name: 'RedisUnavailableError (credentials refused)',
      error: () =>
        new RedisUnavailableError('127.0.0.1:6390', new Error('WRONGPASS invalid username-password pair')),
      code: 78,
      oneLine: true,
    },
  ];

  for (const { name, error, code, oneLine } of expected) {
    it(`README "Exit codes": ${name} exits ${code} with its message on stderr, no stack`, () => {
      const failure = error();
      expect(failure).toBeInstanceOf(ExpectedFailure);
      expect(failure.exitCode).toBe(code);
      const out = reported(failure);
      expect(out.code).toBe(code);
      expectOneMessage(out, failure.message);
      if (oneLine) expectOneLine(out);
    });
  }

  it('README "Exit codes": a Redis that refuses the REDIS_URL credentials mid-run exits 78, naming the host, never the password', () => {
    const out = reported(new Error('WRONGPASS invalid username-password pair or user is disabled.'));
    expect(out.code).toBe(EXIT.config);
    expectOneLine(out);
    expect(out.stderr).toContain('Redis at 127.0.0.1:6390 refused the user name or password in REDIS_URL');
    expect(out.stderr).not.toContain('hunter2-redis-pw');
  });

  it('README "Exit codes": a Redis connection that closes mid-run exits 69, naming the host', () => {
    const out = reported(new Error('Connection is closed.'));
    expect(out.code).toBe(EXIT.unavailable);
    expectOneLine(out);
    expect(out.stderr).toContain('Redis at 127.0.0.1:6390 is unavailable (Connection is closed.)');
  });

  it('README "Exit codes": the platform stopping to answer mid-run exits 69, naming its host, message scrubbed', () => {
    const error = new NetworkError({
      status: null,
      code: null,
      message: `fetch failed: socket hang up (Authorization: Bearer ${TOKEN})`,
      traceId: null,
      retryable: true,
      method: 'GET',
      path: '/accounting/ready',
    });
    const out = reported(error);
    expect(out.code).toBe(EXIT.unavailable);
    expectOneLine(out);
    expect(out.stderr).toContain(
      'the platform at 127.0.0.1:4010 did not answer (GET /accounting/ready: fetch failed',
    );
    expect(out.stderr).toContain('what was done before is kept, run the command again once it answers.');
    expect(out.stderr).not.toContain(TOKEN);
  });

  it('README "Exit codes": a NetworkError with no platform URL known is an ordinary failure (1)', () => {
    const error = new NetworkError({
      status: null,
      code: null,
      message: 'socket hang up',
      traceId: null,
      retryable: true,
    });
    const out = reported(error, { platformUrl: undefined });
    expect(out.code).toBe(EXIT.failed);
    expectOneMessage(out, 'socket hang up');
  });

  it('README "Exit codes": PostgreSQL going away exits 69 with one line, what was done is kept', () => {
    const error = Object.assign(new Error('write CONNECTION_CLOSED 127.0.0.1:5432'), {
      code: 'CONNECTION_CLOSED',
    });
    const out = reported(error);
    expect(out.code).toBe(EXIT.unavailable);
    expectOneLine(out);
    expect(out.stderr).toBe(
      'ledgersync: PostgreSQL is unavailable (write CONNECTION_CLOSED 127.0.0.1:5432); what was done before it went away is kept. Run the command again once the database is back.\n',
    );
  });

  it('README "Exit codes": PostgreSQL refusing connections (53300, 57P03, class 08) exits 69, naming its host', () => {
    const PostgresError = postgres.PostgresError as unknown as new (fields: Record<string, string>) => Error;
    const refusals = [
      new PostgresError({ severity: 'FATAL', code: '53300', message: 'sorry, too many clients already' }),
      new PostgresError({ severity: 'FATAL', code: '57P03', message: 'the database system is starting up' }),
      new PostgresError({ severity: 'FATAL', code: '08004', message: 'server rejected the connection' }),
    ];
    const databaseUrl = 'postgres://worker:hunter2-pg@db.internal:6543/ledger';
    for (const error of refusals) {
      const writes: string[] = [];
      vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
        writes.push(String(chunk));
        return true;
      });
      const code = reportFailure(error, silentLogger, REDIS_URL, PLATFORM_URL, databaseUrl);
      vi.restoreAllMocks();
      expect(code, error.message).toBe(EXIT.unavailable);
      expect(writes).toEqual([
        `ledgersync: PostgreSQL at db.internal:6543 is unavailable (${error.message}); what was done before it went away is kept. Run the command again once the database is back.\n`,
      ]);
    }
  });

  /** What the token call's transport throws for a status (src/platform/http-attempt.ts). */
  function tokenAnswer(status: number, code: string | null, message: string, path = '/developer/v1/token') {
    return platformErrorFor({
      status,
      code,
      message,
      traceId: 't-1',
      retryable: false,
      method: 'POST',
      path,
    });
  }

  it('README "Exit codes", docs/platform.md G5: the token call answered 401 exits 78 naming PLATFORM_CLIENT_ID and PLATFORM_CLIENT_SECRET', () => {
    const out = reported(tokenAnswer(401, 'DEVELOPER_7002', 'invalid client credentials'));
    expect(out.code).toBe(EXIT.config);
    expectOneLine(out);
    expect(out.stderr).toBe(
      'ledgersync: the platform at 127.0.0.1:4010 refused the client credentials (POST /token answered 401 DEVELOPER_7002 invalid client credentials): check PLATFORM_CLIENT_ID and PLATFORM_CLIENT_SECRET (the secret issued with that id, in the same environment as PLATFORM_BASE_URL).\n',
    );
  });

  it('README "Exit codes": an OAuth-style 401 invalid_client (no error_v2 body) is the same refusal', () => {
    const out = reported(tokenAnswer(401, null, 'HTTP 401: {"error":"invalid_client"}'));
    expect(out.code).toBe(EXIT.config);
    expect(out.stderr).toContain('PLATFORM_CLIENT_ID and PLATFORM_CLIENT_SECRET');
  });

  it('README "Exit codes": a 404 on the token call exits 78 naming PLATFORM_BASE_URL (another service at that host and port)', () => {
    const out = reported(tokenAnswer(404, 'DEVELOPER_7404', 'no route /developer/v1/token'));
    expect(out.code).toBe(EXIT.config);
    expectOneLine(out);
    expect(out.stderr).toContain(
      `PLATFORM_BASE_URL (${PLATFORM_URL}) is not the platform's API base: POST /developer/v1/token answered 404.`,
    );
  });

  it('README "Exit codes": a 401 on any other call, or another status on the token call, is not a refused configuration', () => {
    const others: PlatformError[] = [
      platformErrorFor({
        status: 401,
        code: 'DEVELOPER_7028',
        message: 'token expired',
        traceId: null,
        retryable: false,
        method: 'GET',
        path: '/developer/v1/accounting/ready',
      }),
      tokenAnswer(500, null, 'HTTP 500'),
    ];
    for (const error of others) expect(reported(error).code, error.message).toBe(EXIT.failed);
  });

  it('README "Exit codes": a DATABASE_URL naming a missing database (3D000) or a refused user (28P01) exits 78, never the password', () => {
    const PostgresError = postgres.PostgresError as unknown as new (fields: Record<string, string>) => Error;
    const databaseUrl = 'postgres://worker:hunter2-pg@db.internal:6543/ledger';
    const cases = [
      {
        error: new PostgresError({
          severity: 'FATAL',
          code: '3D000',
          message: 'database "ledger" does not exist',
        }),
        line: 'ledgersync: the database "ledger" in DATABASE_URL (postgres://worker@db.internal:6543/ledger) does not exist on PostgreSQL at db.internal:6543: create it (`createdb -h db.internal -p 6543 -U worker ledger`) or set DATABASE_URL to a database that exists.\n',
      },
      {
        error: new PostgresError({
          severity: 'FATAL',
          code: '28P01',
          message: 'password authentication failed for user "worker"',
        }),
        line: 'ledgersync: PostgreSQL at db.internal:6543 refused the user "worker" of DATABASE_URL (postgres://worker@db.internal:6543/ledger): password authentication failed for user "worker". Fix the user name or password in DATABASE_URL, or let that user in on the server (pg_hba.conf).\n',
      },
    ];
    for (const { error, line } of cases) {
      const writes: string[] = [];
      vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
        writes.push(String(chunk));
        return true;
      });
      const code = reportFailure(error, silentLogger, REDIS_URL, PLATFORM_URL, databaseUrl);
      vi.restoreAllMocks();
      expect(code, error.message).toBe(EXIT.config);
      expect(writes).toEqual([line]);
    }
  });

  it('listenFailure leaves a listen error no setting fixes as it is', () => {
    const error = Object.assign(new Error('listen EMFILE'), { code: 'EMFILE' });
    expect(listenFailure(error, { host: '127.0.0.1', port: 8080 })).toBe(error);
  });

  it('README "Exit codes": any other error exits 1 with its scrubbed message, no stack', () => {
    const out = reported(new Error(`the ERP said no (token=${TOKEN})`));
    expect(out.code).toBe(EXIT.failed);
    expectOneLine(out);
    expect(out.stderr).not.toContain(TOKEN);
    expect(out.stderr).toContain('the ERP said no');
  });
});
