import type { Sql } from 'postgres';
import type { MigrationState } from '../states.ts';
import type { MigrationRow } from '../types.ts';
import { MIGRATION_COLUMNS, type RawMigrationRow, toMigrationRow } from './migration-row.ts';

export interface MoveDetails {
  outstanding?: unknown;
  preload?: unknown;
  verification?: unknown;
}

/**
 * Moves a migration from `from` to `to` when migration_transitions allows it and the row is
 * still in `from` (the state machine is checked in SQL); clears last_error and stamps ready_at /
 * finished_at. Null when the move did not happen: another process moved it, or it is not allowed.
 */
export async function moveMigration(
  sql: Sql,
  id: string,
  from: MigrationState,
  to: MigrationState,
  details: MoveDetails = {},
): Promise<MigrationRow | null> {
  // postgres.js serializes a parameter typed jsonb itself: pass the value, not a JSON string.
  const json = (value: unknown) => (value === undefined ? null : value) as never;
  const [row] = await sql.unsafe<RawMigrationRow[]>(
    `update migrations m set
       state = $3, updated_at = now(), last_error = null,
       outstanding = coalesce($4::jsonb, m.outstanding),
       preload = coalesce($5::jsonb, m.preload),
       verification = coalesce($6::jsonb, m.verification),
       ready_at = case when $3 = 'ready' then now() else m.ready_at end,
       finished_at = case when s.terminal then now() else m.finished_at end
     from migration_states s
     where m.id = $1 and m.state = $2 and s.state = $3
       and exists (select 1 from migration_transitions t where t.from_state = $2 and t.to_state = $3)
     returning ${MIGRATION_COLUMNS.split(', ')
       .map((c) => `m.${c}`)
       .join(', ')}`,
    [id, from, to, json(details.outstanding), json(details.preload), json(details.verification)],
  );
  return row ? toMigrationRow(row) : null;
}
