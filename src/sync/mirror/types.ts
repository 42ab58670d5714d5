import type { Sql } from 'postgres';
import type { ErpAdapter } from '../../erp/index.ts';
import type { Logger } from '../../log.ts';
import type { PlatformClient } from '../../platform/index.ts';

/** The id_map kinds, in the upload order of docs/platform.md G15 (tax: rates, code field, options). */
export const MIRROR_KINDS = [
  'gl_account',
  'field',
  'field_option',
  'vendor',
  'tax_rate',
  'tax_code_field',
  'tax_code_option',
] as const;
export type MirrorKind = (typeof MIRROR_KINDS)[number];

export type Visibility = 'VISIBLE' | 'HIDDEN';

/** What the mirror reads of the ERP: the chart streams only. */
export type ChartSource = Pick<
  ErpAdapter,
  'glAccounts' | 'customFields' | 'fieldOptions' | 'vendors' | 'taxRates' | 'taxCodes'
>;

/** What the mirror uses of the platform client: the chart-of-accounts resource only. */
export type ChartPlatform = Pick<PlatformClient, 'chart'>;

export interface MirrorDeps {
  sql: Sql;
  erp: ChartSource;
  platform: ChartPlatform;
  /** The platform's id of the worker's (active) accounting connection. */
  connectionId: string;
  log: Logger;
  onProgress?: (progress: MirrorProgress) => void;
}

export interface MirrorOptions {
  /** Mirror into this (inactive) connection instead, for a migration (docs/platform.md G30). */
  accountingConnectionId?: string;
  /** Only these kinds; dependents read their parents' svc_ids from id_map. */
  kinds?: readonly MirrorKind[];
  /** Plan only: count what would be created/updated/deactivated; no platform call, no write. */
  dryRun?: boolean;
  /** Stops between platform calls (job cancelled, shutdown). */
  signal?: AbortSignal;
}

export type MirrorAction = 'create' | 'update' | 'deactivate' | 'reactivate' | 'hide' | 'unhide';

export interface MirrorFailure {
  remoteId: string;
  /** The field's remote id, for field options. */
  parentRemoteId?: string;
  action: MirrorAction;
  /** The platform's message (or the local validation's), scrubbed; never a secret. */
  reason: string;
}

export interface KindSummary {
  created: number;
  updated: number;
  deactivated: number;
  reactivated: number;
  hidden: number;
  unhidden: number;
  /** Found already on the platform after DEVELOPER_7020 and recorded (F12), not created again. */
  adopted: number;
  unchanged: number;
  failed: MirrorFailure[];
}

export interface MirrorSummary {
  /** The connection written to (accountingConnectionId, else the worker's). */
  connectionId: string;
  dryRun: boolean;
  /** Another process holds this connection's chart lock; nothing was done. */
  busy: boolean;
  kinds: Record<MirrorKind, KindSummary>;
  /** POST/PATCH/PUT/DELETE calls made (client retries of one call not counted again). */
  writeCalls: number;
  /** GET calls: pages read to adopt items after DEVELOPER_7020, or to find unconfirmed ones (F41). */
  readCalls: number;
  durationMs: number;
}

export interface MirrorProgress {
  kind: MirrorKind;
  phase: 'planned' | 'creating' | 'changing' | 'done';
  /** Items of this kind's plan handled so far, and planned in all. */
  done: number;
  total: number;
  writeCalls: number;
  kinds: Record<MirrorKind, KindSummary>;
}
