import type { Sql } from 'postgres';
import type { MigrationState } from '../states.ts';
import type { MoveDetails } from './move-migration.ts';

/**
 * Updates what a repeated step found (a preload or verification run again in the same state)
 * without moving the state; only while the row is still in `state`.
 */
export async function recordDetails(
  sql: Sql,
  id: string,
  state: MigrationState,
  details: MoveDetails,
): Promise<void> {
  // postgres.js serializes a parameter typed jsonb itself: pass the value, not a JSON string.
  const json = (value: unknown) => (value === undefined ? null : value) as never;
  await sql.unsafe(
    `update migrations set updated_at = now(),
       outstanding = coalesce($3::jsonb, outstanding),
       preload = coalesce($4::jsonb, preload),
       verification = coalesce($5::jsonb, verification)
     where id = $1 and state = $2`,
    [id, state, json(details.outstanding), json(details.preload), json(details.verification)],
  );
}
