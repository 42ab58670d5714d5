import { ApiError } from '../core/errors.ts';
import type { ConnectionRecord, Connections } from '../world/connections.ts';

/**
 * POST /accounting/connection/{id}/ready-to-migrate (docs/platform.md F7,
 * G31): four preconditions, each failing with 409 DEVELOPER_7001 and a message that names
 * it (additional_info.precondition).
 */
export const PRECONDITIONS = {
  inactive_api_connection: 'the connection must be an inactive API connection',
  active_connection_exists: 'a separate active connection must exist',
  not_already_ready: 'the connection is already ready to migrate',
  no_migration_in_progress: 'another migration is already in progress',
} as const;

export function assertReadyToMigrate(connections: Connections, target: ConnectionRecord): void {
  const fail = (precondition: keyof typeof PRECONDITIONS): never => {
    throw new ApiError(
      'DEVELOPER_7001',
      `ready-to-migrate refused: ${PRECONDITIONS[precondition]}`,
      {
        precondition,
        accounting_connection_id: target.id,
      },
      409,
    );
  };
  if (target.is_active || target.connection_type !== 'API') fail('inactive_api_connection');
  const active = connections.active();
  if (!active || active.id === target.id) fail('active_connection_exists');
  if (target.is_ready_to_migrate) fail('not_already_ready');
  if (connections.list.some((c) => c.id !== target.id && c.is_ready_to_migrate))
    fail('no_migration_in_progress');
}
