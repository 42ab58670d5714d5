import { scrubString } from '../secrets.ts';
import { databaseHost } from './database.ts';

/**
 * A DATABASE_URL the PostgreSQL server refuses for what it says, not for its state: a database
 * that does not exist, a password or role it does not accept. Retrying changes nothing, so this
 * is configuration (README "Exit codes": 78), told in one line naming DATABASE_URL (shown without
 * its password) and what to do. A server that is down or full is src/app/database.ts's (69).
 */

/**
 * SQLSTATE (postgres.js's PostgresError `code`): invalid_catalog_name (no such database),
 * invalid_password, invalid_authorization_specification (no such role, or pg_hba.conf refuses).
 */
const MISSING_DATABASE = '3D000';
const BAD_PASSWORD = '28P01';
const REFUSED_ROLE = '28000';

interface UrlParts {
  /** The URL without its password. */
  shown: string;
  database: string;
  user: string;
  host: string;
  port: string;
}

function partsOf(databaseUrl: string): UrlParts | null {
  try {
    const url = new URL(databaseUrl);
    url.password = '';
    const socketDir = url.searchParams.get('host');
    return {
      shown: url.toString(),
      database: decodeURIComponent(url.pathname.replace(/^\//, '')),
      user: decodeURIComponent(url.username),
      host: url.hostname || socketDir || 'localhost',
      port: url.port || '5432',
    };
  } catch {
    return null;
  }
}

/** `createdb` with the URL's host, port and user, so it runs against the same server. */
function createdbCommand(parts: UrlParts): string {
  const user = parts.user ? ` -U ${parts.user}` : '';
  return `createdb -h ${parts.host} -p ${parts.port}${user} ${parts.database}`;
}

/** The one line for a refused DATABASE_URL, or null when `error` is not such a refusal. */
export function databaseRefusalMessage(error: unknown, databaseUrl: string | undefined): string | null {
  if (!(error instanceof Error) || !databaseUrl) return null;
  const code = (error as { code?: unknown }).code;
  if (code !== MISSING_DATABASE && code !== BAD_PASSWORD && code !== REFUSED_ROLE) return null;
  const parts = partsOf(databaseUrl);
  if (!parts) return null;
  const server = `PostgreSQL at ${databaseHost(databaseUrl)}`;
  const said = scrubString(error.message);
  if (code === MISSING_DATABASE) {
    return (
      `the database "${parts.database}" in DATABASE_URL (${parts.shown}) does not exist on ${server}: ` +
      `create it (\`${createdbCommand(parts)}\`) or set DATABASE_URL to a database that exists.`
    );
  }
  return (
    `${server} refused the user "${parts.user}" of DATABASE_URL (${parts.shown}): ${said}. ` +
    'Fix the user name or password in DATABASE_URL, or let that user in on the server (pg_hba.conf).'
  );
}
