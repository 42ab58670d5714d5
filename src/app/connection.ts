import type { Sql } from 'postgres';
import type { PlatformClient } from '../platform/client.ts';

export class NoConnectionError extends Error {
  constructor() {
    super(
      'The platform has no active accounting connection for these credentials. Create one with ' +
        '`npx ledgersync connection create --provider "<ERP name>"`, or set PLATFORM_CONNECTION_ID.',
    );
    this.name = 'NoConnectionError';
  }
}

/**
 * The accounting connection this worker syncs: PLATFORM_CONNECTION_ID when set, else the active
 * one (docs/platform.md G13: only one connection is active at a time). Recorded in `connections`.
 */
export async function resolveConnection(
  platform: PlatformClient,
  sql: Sql,
  configured?: string,
): Promise<string> {
  const connection = configured
    ? await platform.connection.get(configured)
    : await platform.connection.getActive();
  if (!connection) throw new NoConnectionError();
  await sql`
    insert into connections (id, remote_provider_name, is_active)
    values (${connection.id}, ${connection.remote_provider_name}, ${connection.is_active})
    on conflict (id) do update set remote_provider_name = excluded.remote_provider_name, is_active = excluded.is_active`;
  return connection.id;
}
