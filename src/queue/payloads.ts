import { z } from 'zod';
import { OBJECT_KINDS } from '../sync/objects/index.ts';
import { issuesText } from '../zod-issues.ts';

/** Payloads taken off a queue are untrusted: every processor parses its payload with these. */

/** `operator`: `sync --via-worker`, an operator asking the worker for a run now. */
export const Trigger = z.enum([
  'cron',
  'webhook',
  'cli',
  'operator',
  'sync_button',
  'migration',
  'demo',
  'bench',
]);
export type Trigger = z.infer<typeof Trigger>;

export const SyncObjectsPayload = z.strictObject({
  connectionId: z.string().min(1),
  kind: z.enum(OBJECT_KINDS),
  trigger: Trigger,
});
export type SyncObjectsPayload = z.infer<typeof SyncObjectsPayload>;

export const SyncButtonPayload = z.strictObject({
  connectionId: z.string().min(1),
  objectType: z.enum(['TRANSACTION', 'REIMBURSEMENT']),
  syncRequestId: z.string().min(1),
  /** When the platform's 5-minute window closes (docs/platform.md G29), ISO 8601. */
  deadline: z.iso.datetime(),
  /**
   * The watchdog's lead when the receiver was configured with a fixed one; absent, the watchdog
   * sets its start from the platform latency seen (src/sync/sync-button/watchdog-lead.ts).
   */
  watchdogLeadMs: z.number().int().nonnegative().optional(),
});
export type SyncButtonPayload = z.infer<typeof SyncButtonPayload>;

export const CoaMirrorPayload = z.strictObject({
  connectionId: z.string().min(1),
  accountingConnectionId: z.string().min(1).optional(),
  trigger: Trigger,
});
export type CoaMirrorPayload = z.infer<typeof CoaMirrorPayload>;

/**
 * `migrate prepare` as a job (docs/platform.md G30): the same run as the CLI, resumable, on its own
 * queue (`migrate prepare --queue` enqueues it; jobs/connection-migration.ts).
 */
export const MigrationPayload = z.strictObject({
  provider: z.string().trim().min(1),
  /** The connection being left; default the active one. */
  sourceConnectionId: z.string().min(1).optional(),
  /** An existing inactive API connection to prepare instead of creating one. */
  targetConnectionId: z.string().min(1).optional(),
  force: z.boolean().default(false),
  skipSync: z.boolean().default(false),
  backupDir: z.string().min(1).optional(),
  trigger: Trigger,
});
export type MigrationPayload = z.infer<typeof MigrationPayload>;

export const MIGRATION_QUEUE = 'migration';

export const QUEUE_NAMES = {
  objectSync: 'object-sync',
  /** Its own queue, so a button press never waits behind a backlog (docs/platform.md G28). */
  syncButton: 'sync-button',
  coaMirror: 'coa-mirror',
  /**
   * Answers unfinished sync-button rows shortly before the deadline (payload: SyncButtonPayload);
   * its own queue, so it never waits behind the run it guards.
   */
  syncWatchdog: 'sync-watchdog',
  /** `migrate prepare` runs (payload: MigrationPayload): one at a time, resumed after a crash. */
  migration: MIGRATION_QUEUE,
} as const;

/** A payload that fails its schema is a bug upstream: the job fails without retrying. */
export function parsePayload<S extends z.ZodType>(schema: S, data: unknown, queue: string): z.infer<S> {
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    throw new InvalidPayloadError(
      `Invalid ${queue} job payload: ${issuesText(parsed.error, { root: '(payload)' })}`,
    );
  }
  return parsed.data;
}

export class InvalidPayloadError extends Error {
  override name = 'InvalidPayloadError';
}
