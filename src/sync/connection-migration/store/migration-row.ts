import type { MigrationState } from '../states.ts';
import type { MigrationRow } from '../types.ts';

/** The columns every store query returns for a migration. */
export const MIGRATION_COLUMNS =
  'id, source_connection_id, provider, target_connection_id, requested_target, state, connections_before, ' +
  'outstanding, preload, verification, last_error, started_at, updated_at, ready_at, finished_at';

export interface RawMigrationRow {
  id: string | number | bigint;
  source_connection_id: string;
  provider: string;
  target_connection_id: string | null;
  requested_target: boolean;
  state: string;
  connections_before: string[] | null;
  outstanding: unknown;
  preload: unknown;
  verification: unknown;
  last_error: string | null;
  started_at: Date;
  updated_at: Date;
  ready_at: Date | null;
  finished_at: Date | null;
}

export function toMigrationRow(raw: RawMigrationRow): MigrationRow {
  return {
    id: String(raw.id),
    sourceConnectionId: raw.source_connection_id,
    provider: raw.provider,
    targetConnectionId: raw.target_connection_id,
    requestedTarget: raw.requested_target,
    state: raw.state as MigrationState,
    connectionsBefore: raw.connections_before,
    outstanding: raw.outstanding,
    preload: raw.preload,
    verification: raw.verification,
    lastError: raw.last_error,
    startedAt: raw.started_at,
    updatedAt: raw.updated_at,
    readyAt: raw.ready_at,
    finishedAt: raw.finished_at,
  };
}
