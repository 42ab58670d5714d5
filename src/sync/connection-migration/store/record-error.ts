import type { Sql } from 'postgres';
import { scrubString } from '../../../secrets.ts';

/** Why the last run stopped, shown by `migrate status`; scrubbed, never a secret. */
export async function recordError(sql: Sql, id: string, message: string): Promise<void> {
  await sql`update migrations set last_error = ${scrubString(message).slice(0, 4000)}, updated_at = now()
    where id = ${id}`;
}
