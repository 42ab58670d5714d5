import type { Sql } from 'postgres';
import type { AccountingConnection, PlatformClient } from '../../platform/index.ts';
import { type MigrationState, STEP_RESULT, STEPS, type StepName } from './states.ts';
import { latestMigration, loadBackup } from './store.ts';
import type { MigrationRow } from './types.ts';
import type { Verification } from './verify.ts';

type ConnectionView = Pick<
  AccountingConnection,
  'id' | 'remote_provider_name' | 'connection_type' | 'is_active' | 'is_ready_to_migrate' | 'status'
>;

type ListCounts = Record<string, { erp: number; platform: number }>;

export interface MigrationStatus {
  migration: {
    id: string;
    state: MigrationState;
    provider: string;
    startedAt: string;
    readyAt: string | null;
    finishedAt: string | null;
    lastError: string | null;
    steps: Array<{ step: StepName; done: boolean }>;
    preload: unknown;
    /** Per list of the chart: the ERP's count and the new connection's, from the last verification. */
    counts: ListCounts | null;
    outstandingLeftBehind: number;
    backup: {
      file: string;
      items: number;
      counts: Record<string, number>;
      takenAt: string;
      sha256: string;
    } | null;
  } | null;
  /** The connection being left and the new inactive one, as the platform shows them now. */
  source: ConnectionView | null;
  target: ConnectionView | null;
  /** One word for scripts: none, in_progress, ready, switched, abandoned. */
  readiness: 'none' | 'in_progress' | 'ready' | 'switched' | 'abandoned';
}

/** `migrate status`: the latest migration, its new connection live from the platform, and counts. */
export async function migrationStatus(deps: {
  sql: Sql;
  platform: PlatformClient;
}): Promise<MigrationStatus> {
  const row = await latestMigration(deps.sql);
  if (!row) return { migration: null, source: null, target: null, readiness: 'none' };
  const [source, target] = await Promise.all([
    deps.platform.connection.get(row.sourceConnectionId),
    row.targetConnectionId ? deps.platform.connection.get(row.targetConnectionId) : Promise.resolve(null),
  ]);
  const backup = await loadBackup(deps.sql, row.id);
  return {
    migration: {
      id: row.id,
      state: row.state,
      provider: row.provider,
      startedAt: row.startedAt.toISOString(),
      readyAt: row.readyAt?.toISOString() ?? null,
      finishedAt: row.finishedAt?.toISOString() ?? null,
      lastError: row.lastError,
      steps: STEPS.map((step) => ({ step, done: reached(row.state, STEP_RESULT[step]) })),
      preload: row.preload ?? null,
      counts: countsOf(row.verification as Verification | null),
      outstandingLeftBehind: (row.outstanding as { total?: number } | null)?.total ?? 0,
      backup: backup && {
        file: backup.filePath,
        items: backup.itemCount,
        counts: backup.counts,
        takenAt: backup.takenAt.toISOString(),
        sha256: backup.sha256,
      },
    },
    source: source && view(source),
    target: target && view(target),
    readiness: readinessOf(row, target),
  };
}

/** jsonb keeps its own key order; status shows the chart's lists in upload order (docs/platform.md G15). */
const LIST_ORDER = ['gl_accounts', 'fields', 'field_options', 'vendors', 'tax_rates', 'tax_code_options'];

const ORDER: readonly MigrationState[] = [
  'started',
  'checked',
  'backed_up',
  'target_created',
  'preloaded',
  'verified',
  'ready',
  'switched',
];

function reached(state: MigrationState, wanted: MigrationState): boolean {
  if (state === 'abandoned') return false;
  return ORDER.indexOf(state) >= ORDER.indexOf(wanted);
}

function readinessOf(row: MigrationRow, target: AccountingConnection | null): MigrationStatus['readiness'] {
  if (row.state === 'abandoned') return 'abandoned';
  if (row.state === 'switched' || (row.state === 'ready' && target?.is_active)) return 'switched';
  if (target?.is_ready_to_migrate) return 'ready';
  return 'in_progress';
}

function countsOf(verification: Verification | null): ListCounts | null {
  if (!verification?.lists) return null;
  const lists = verification.lists as Record<string, { erp: number; platform: number } | undefined>;
  const out: ListCounts = {};
  for (const list of LIST_ORDER) {
    const l = lists[list];
    if (l) out[list] = { erp: l.erp, platform: l.platform };
  }
  return out;
}

function view(c: AccountingConnection): ConnectionView {
  return {
    id: c.id,
    remote_provider_name: c.remote_provider_name,
    connection_type: c.connection_type,
    is_active: c.is_active,
    is_ready_to_migrate: c.is_ready_to_migrate,
    status: c.status,
  };
}
