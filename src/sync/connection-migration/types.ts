import type { Sql } from 'postgres';
import type { ErpAdapter } from '../../erp/index.ts';
import type { Logger } from '../../log.ts';
import type { PlatformClient } from '../../platform/index.ts';
import type { MirrorProgress } from '../mirror/index.ts';
import type { SyncPlatform } from '../objects/index.ts';
import type { Blocker } from './blockers.ts';
import type { MigrationState, StepName } from './states.ts';

/** What the migration runner uses: the worker's database, the ERP and the platform. */
export interface MigrationDeps {
  sql: Sql;
  erp: ErpAdapter;
  platform: PlatformClient;
  /** For syncing outstanding objects before the backup (docs/platform.md G30). */
  syncPlatform: SyncPlatform;
  log: Logger;
}

export interface PrepareOptions {
  /** remote_provider_name of the new connection (F6), as the customer will see it. */
  provider: string;
  /** The connection the customer leaves; default the active one (PLATFORM_CONNECTION_ID). */
  sourceConnectionId?: string;
  /** Use this existing inactive API connection instead of creating one. */
  targetConnectionId?: string;
  /** Go on although ready objects remain unsynced (they are listed and recorded). */
  force?: boolean;
  /** Do not run the object sync first; only list what is outstanding. */
  skipSync?: boolean;
  /** Folder of the JSON backup (default .ledgersync/backups). */
  backupDir: string;
  signal?: AbortSignal;
  onStep?: (event: StepEvent) => void;
  /** The preload's progress, item by item (the chart mirror's own report). */
  onPreloadProgress?: (progress: MirrorProgress) => void;
  /**
   * Called after each step's effect ('applied': done on the platform or on disk, not yet
   * recorded) and after its state is recorded ('recorded'). Tests throw here to simulate a
   * crash at every point of the run.
   */
  checkpoint?: (step: StepName, phase: 'applied' | 'recorded') => void | Promise<void>;
}

export interface StepEvent {
  step: StepName;
  /** One line for a person: what the step found or did. */
  detail: string;
}

export interface MigrationRow {
  id: string;
  sourceConnectionId: string;
  provider: string;
  targetConnectionId: string | null;
  requestedTarget: boolean;
  state: MigrationState;
  connectionsBefore: string[] | null;
  outstanding: unknown;
  preload: unknown;
  verification: unknown;
  lastError: string | null;
  startedAt: Date;
  updatedAt: Date;
  readyAt: Date | null;
  finishedAt: Date | null;
}

export type PrepareOutcome =
  /** This run marked the target ready (or found it ready after a crash). */
  | 'ready'
  /** Nothing to do: already ready, or the customer already switched. */
  | 'unchanged'
  /** A precondition is not met: the blocker says what and what to do. */
  | 'blocked'
  /** The preload was refused in part or does not match the ERP: fix, then run again. */
  | 'incomplete'
  /** Another `migrate prepare` is running right now. */
  | 'busy';

export interface PrepareResult {
  outcome: PrepareOutcome;
  migrationId: string | null;
  state: MigrationState | null;
  sourceConnectionId: string | null;
  targetConnectionId: string | null;
  provider: string;
  backupFile: string | null;
  /** Steps this run did, in order. */
  steps: StepEvent[];
  blocker: Blocker | null;
  /** Things worth knowing that did not stop the run (forced outstanding objects, already ready). */
  notes: string[];
  /** What the customer and the operator do next (docs/platform.md G30). */
  nextSteps: string[];
}
