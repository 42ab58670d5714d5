import { type MirrorSummary, mirrorChart } from '../mirror/index.ts';
import type { Blocker } from './blockers.ts';
import { busy } from './blockers.ts';
import { checkpoint, moved, type StepContext, type StepOutcome, stopped } from './step-context.ts';
import { moveMigration, recordDetails } from './store.ts';

/** Counts per kind, as kept on the migration and shown by `migrate status`. */
interface KindCounts {
  created: number;
  adopted: number;
  unchanged: number;
  updated: number;
  deactivated: number;
  reactivated: number;
  hidden: number;
  failed: number;
}
export type PreloadCounts = Record<string, KindCounts>;

/**
 * Step 4: preload the ERP's chart into the inactive connection with accounting_connection_id in
 * every body (docs/platform.md G30): GL accounts, fields and options, vendors, tax rates, the tax code
 * and its options, through the chart mirror (id_map keyed by the target connection, so it
 * resumes after a crash and adopts what an interrupted run uploaded, F12). Run again on every
 * resume until verified: with nothing changed it writes nothing.
 */
export async function preloadStep(ctx: StepContext): Promise<StepOutcome> {
  const { deps, options, row } = ctx;
  const target = row.targetConnectionId!;
  const summary = await mirrorChart(
    {
      sql: deps.sql,
      erp: deps.erp,
      platform: deps.platform,
      connectionId: row.sourceConnectionId,
      log: deps.log,
      ...(options.onPreloadProgress ? { onProgress: options.onPreloadProgress } : {}),
    },
    { accountingConnectionId: target, signal: options.signal },
  );
  if (summary.busy) return stopped('busy', busy());
  const counts = preloadCounts(summary);
  const failures = Object.entries(summary.kinds).flatMap(([kind, s]) =>
    s.failed.map((f) => ({ kind, ...f })),
  );
  if (failures.length > 0) {
    if (row.state === 'preloaded') await recordDetails(deps.sql, row.id, row.state, { preload: counts });
    return stopped('incomplete', preloadFailed(failures));
  }
  await checkpoint(ctx, 'preload', 'applied');
  let next = row;
  if (row.state === 'target_created') {
    next = moved(
      await moveMigration(deps.sql, row.id, 'target_created', 'preloaded', { preload: counts }),
      row.id,
      'target_created',
      'preloaded',
    );
  } else {
    await recordDetails(deps.sql, row.id, row.state, { preload: counts });
  }
  return { ok: true, row: next, detail: `chart preloaded into ${target}: ${describe(counts)}` };
}

export function preloadCounts(summary: MirrorSummary): PreloadCounts {
  const out: PreloadCounts = {};
  for (const [kind, s] of Object.entries(summary.kinds)) {
    out[kind] = {
      created: s.created,
      adopted: s.adopted,
      unchanged: s.unchanged,
      updated: s.updated,
      deactivated: s.deactivated,
      reactivated: s.reactivated,
      hidden: s.hidden,
      failed: s.failed.length,
    };
  }
  return out;
}

function describe(counts: PreloadCounts): string {
  return Object.entries(counts)
    .map(([kind, c]) => {
      const changed = c.updated + c.deactivated + c.reactivated + c.hidden;
      const extra = [
        c.adopted ? `${c.adopted} found from an interrupted run` : '',
        changed ? `${changed} changed` : '',
      ]
        .filter(Boolean)
        .join(', ');
      return `${kind} ${c.created} created${extra ? ` (${extra})` : ''}`;
    })
    .join(', ');
}

function preloadFailed(
  failures: Array<{
    kind: string;
    remoteId: string;
    parentRemoteId?: string;
    action: string;
    reason: string;
  }>,
): Blocker {
  const named = failures
    .slice(0, 10)
    .map(
      (f) =>
        `${f.kind} ${f.parentRemoteId ? `${f.parentRemoteId}/` : ''}${f.remoteId} (${f.action}): ${f.reason}`,
    );
  return {
    code: 'preload_failed',
    message: `The platform refused ${failures.length} chart items for the new connection:\n  ${named.join('\n  ')}${
      failures.length > 10 ? `\n  and ${failures.length - 10} more` : ''
    }`,
    fix: 'Correct these items in the ERP, then run `npx ledgersync migrate prepare` again; it picks up where it stopped.',
    details: failures,
  };
}
