import type { Sql } from 'postgres';
import { EXIT, ExpectedFailure } from '../exit-codes.ts';
import { type Logger, silentLogger } from '../log.ts';
import type { PlatformClient } from '../platform/index.ts';
import { GrantUnusableError } from '../platform/index.ts';
import { followSwitch } from '../sync/connection-migration/index.ts';
import { refuseUnreportable } from './connection-refusal.ts';

/**
 * The platform has no accounting connection to sync (docs/platform.md F39: `{}`, a 404, or no
 * active API connection in the list). A set-up step is missing, not a fault: exit 78 with what to do.
 */
export class NoConnectionError extends ExpectedFailure {
  override readonly exitCode = EXIT.config;
  constructor(configured?: string) {
    super(
      configured
        ? `PLATFORM_CONNECTION_ID names connection ${configured}, which the platform does not have. ` +
            'Set it to an id from `npx ledgersync connection show`, or unset it to sync the active connection.'
        : 'The platform has no active accounting connection for these credentials. Create one with ' +
            '`npx ledgersync connection create --provider "<ERP name>"`, or set PLATFORM_CONNECTION_ID.',
    );
    this.name = 'NoConnectionError';
  }
}

/**
 * The accounting connection this worker syncs: PLATFORM_CONNECTION_ID when set, else the active
 * one (docs/platform.md G13: only one connection is active at a time). Recorded in `connections`.
 * When the customer has switched to a connection a migration prepared (G31, last row), the new
 * one, the switch being recorded by the first to see it (src/sync/connection-migration/switch.ts); while a
 * run of the connection left still holds its locks, the connection left, as before the switch.
 */
export async function resolveConnection(
  platform: PlatformClient,
  sql: Sql,
  configured?: string,
  log: Logger = silentLogger,
): Promise<string> {
  const connection = configured
    ? await platform.connection.get(configured)
    : await platform.connection.getActive();
  if (!connection) throw new NoConnectionError(configured);
  refuseUnreportable(connection, configured);
  // A null provider name (docs/platform.md F37) is stored as '' and never overwrites a known one.
  await sql`
    insert into connections (id, remote_provider_name, is_active)
    values (${connection.id}, ${connection.remote_provider_name ?? ''}, ${connection.is_active})
    on conflict (id) do update set
      remote_provider_name = coalesce(nullif(excluded.remote_provider_name, ''), connections.remote_provider_name),
      is_active = excluded.is_active`;
  const followed = await followSwitch({ sql, platform, log }, connection.id);
  if (configured && followed.connectionId !== configured) {
    log.warn(
      { configured, connectionId: followed.connectionId },
      'PLATFORM_CONNECTION_ID names a connection the customer switched away from: syncing the new one; set it to the new id or unset it',
    );
  }
  return followed.connectionId;
}

/**
 * resolveConnection, except when the Authorization Code grant is unusable (revoked, or no consent
 * yet): then the connection last synced (PLATFORM_CONNECTION_ID, else the last active one
 * recorded), so the worker and `status` still run and say the business must reconnect. With no
 * connection ever recorded, the grant's failure stands.
 */
export async function connectionDespiteGrant(
  app: { platform: PlatformClient; sql: Sql; log?: Logger },
  configured?: string,
): Promise<string> {
  try {
    return await resolveConnection(app.platform, app.sql, configured, app.log);
  } catch (error) {
    if (!(error instanceof GrantUnusableError)) throw error;
    if (configured) return configured;
    const [known] = await app.sql<{ id: string }[]>`
      select id from connections order by is_active desc, created_at desc limit 1`;
    if (!known) throw error;
    return known.id;
  }
}

/**
 * connectionDespiteGrant for `status`: null when the grant is unusable and no connection was ever
 * recorded (a revocation met by the very first command). The report still runs, with the grant's
 * problem as its banner, and exits 3 like every PROBLEM (README "Exit codes").
 */
export async function connectionForStatus(
  app: { platform: PlatformClient; sql: Sql; log?: Logger },
  configured?: string,
): Promise<string | null> {
  try {
    return await connectionDespiteGrant(app, configured);
  } catch (error) {
    if (error instanceof GrantUnusableError) return null;
    throw error;
  }
}
