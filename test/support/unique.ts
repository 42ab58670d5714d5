import { randomBytes } from 'node:crypto';

/** A name unique to this test run, safe as a Postgres identifier and a Redis key prefix. */
export function uniqueName(prefix: string): string {
  return `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
}
