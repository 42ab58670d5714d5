import type { Sql } from 'postgres';
import type { PlatformClient } from '../../platform/index.ts';
import { connectionLabel } from './blockers.ts';
import { abandonMigration, openMigration } from './store.ts';
import type { MigrationRow } from './types.ts';

export interface AbandonResult {
  abandoned: MigrationRow | null;
  /** Said when the platform still shows the new connection ready to migrate. */
  warnings: string[];
}

/**
 * `migrate abandon`: drops the open migration here, so another can start. The platform offers
 * no call to undo ready-to-migrate, so a connection already marked ready stays selectable; the
 * warning says so.
 */
export async function abandonOpenMigration(deps: {
  sql: Sql;
  platform: PlatformClient;
}): Promise<AbandonResult> {
  const open = await openMigration(deps.sql);
  if (!open) return { abandoned: null, warnings: [] };
  const abandoned = await abandonMigration(deps.sql, open);
  const warnings: string[] = [];
  const target = open.targetConnectionId ? await deps.platform.connection.get(open.targetConnectionId) : null;
  if (target?.is_ready_to_migrate) {
    warnings.push(
      `Connection ${connectionLabel(target)} is still marked ready to migrate on the platform, and ` +
        'the API cannot undo that: tell the customer not to pick it under Switch Providers, or ask the platform to cancel it.',
    );
  }
  return { abandoned, warnings };
}
