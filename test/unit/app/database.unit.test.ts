import postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import {
  databaseHost,
  databaseUnavailableMessage,
  isDatabaseUnavailable,
} from '../../../src/app/database.ts';

/** What postgres.js throws for a server's ErrorResponse: its PostgresError, the SQLSTATE as `code`. */
function serverError(code: string, message: string): Error {
  const PostgresError = postgres.PostgresError as unknown as new (fields: Record<string, string>) => Error;
  return new PostgresError({ severity: 'FATAL', severity_local: 'FATAL', code, message, routine: 'x' });
}

describe('isDatabaseUnavailable', () => {
  it('a server refusing connections now: too_many_connections, cannot_connect_now, class 08', () => {
    const refusals = [
      serverError('53300', 'sorry, too many clients already'),
      serverError('53300', 'too many connections for role "ledgersync"'),
      serverError('57P03', 'the database system is starting up'),
      serverError('57P01', 'terminating connection due to administrator command'),
      serverError('08006', 'connection failure'),
      serverError('08P01', 'invalid startup packet layout'),
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
    ];
    for (const error of refusals) expect(isDatabaseUnavailable(error), error.message).toBe(true);
  });

  it('errors of the work itself are not an outage', () => {
    const others = [
      serverError('23505', 'duplicate key value violates unique constraint'),
      serverError('53100', 'could not extend file: No space left on device'),
      serverError('28P01', 'password authentication failed for user "ledgersync"'),
      serverError('42P01', 'relation "sync_ledger" does not exist'),
      new Error('too many clients'),
      { code: '53300', message: 'not an Error' },
    ];
    for (const error of others) expect(isDatabaseUnavailable(error), String(error)).toBe(false);
  });
});

describe('databaseUnavailableMessage', () => {
  it('names the host and port of DATABASE_URL, never its credentials', () => {
    const error = serverError('53300', 'sorry, too many clients already');
    const line = databaseUnavailableMessage(error, 'postgres://worker:hunter2-pg@db.internal:6543/ledger');
    expect(line).toBe(
      'PostgreSQL at db.internal:6543 is unavailable (sorry, too many clients already); what was done before it went away is kept. Run the command again once the database is back.',
    );
    expect(line).not.toContain('hunter2-pg');
  });

  it('databaseHost: default port, Unix socket directory, unreadable URL', () => {
    expect(databaseHost('postgresql://u:p@pg.example.com/ledger')).toBe('pg.example.com:5432');
    expect(databaseHost('postgres:///ledger?host=/run/postgresql')).toBe('/run/postgresql');
    expect(databaseHost('not a url')).toBe('DATABASE_URL');
  });
});
