import { withAdvisoryLock } from '../advisory-lock.ts';
import { mirrorFieldOptions, mirrorFields, mirrorGlAccounts, mirrorVendors } from './chart-steps.ts';
import type { MirrorContext } from './context.ts';
import { mirrorLockName } from './lock-name.ts';
import { ProgressReporter } from './progress.ts';
import { emptySummary } from './summary.ts';
import { mirrorTaxCodeField, mirrorTaxCodeOptions, mirrorTaxRates } from './tax-steps.ts';
import {
  MIRROR_KINDS,
  type MirrorDeps,
  type MirrorKind,
  type MirrorOptions,
  type MirrorSummary,
} from './types.ts';

export type {
  KindSummary,
  MirrorDeps,
  MirrorFailure,
  MirrorKind,
  MirrorOptions,
  MirrorProgress,
  MirrorSummary,
} from './types.ts';
export { MIRROR_KINDS } from './types.ts';

/** Upload order (docs/platform.md G15): GL accounts, fields, their options, vendors; tax rates, tax code field, options. */
const STEPS: Record<MirrorKind, (ctx: MirrorContext) => Promise<void>> = {
  gl_account: mirrorGlAccounts,
  field: mirrorFields,
  field_option: mirrorFieldOptions,
  vendor: mirrorVendors,
  tax_rate: mirrorTaxRates,
  tax_code_field: mirrorTaxCodeField,
  tax_code_option: mirrorTaxCodeOptions,
};

/**
 * Mirrors the ERP's chart of accounts into one platform connection (the worker's, or an inactive
 * one for a migration): new items uploaded in all-or-nothing batches of 500, changed ones
 * PATCHed, gone or inactive ones DELETEd (is_active false), returning ones reactivated, hidden
 * ones set to visibility HIDDEN. Only items it uploaded (as the answer confirmed) or adopted under
 * the ERP's remote id are ever PATCHed or DELETEd (docs/platform.md F41, upload-answer.ts). One mirror per target connection at a time (advisory lock);
 * when another holds it, returns at once with `busy: true`.
 */
export async function mirrorChart(deps: MirrorDeps, options: MirrorOptions = {}): Promise<MirrorSummary> {
  const started = Date.now();
  const target = options.accountingConnectionId ?? deps.connectionId;
  const summary = emptySummary(target, options.dryRun === true);
  const outcome = await withAdvisoryLock(deps.sql, mirrorLockName(target), (lockLost) =>
    run(deps, options, summary, lockLost),
  );
  if (outcome.busy) summary.busy = true;
  summary.durationMs = Date.now() - started;
  return summary;
}

async function run(
  deps: MirrorDeps,
  options: MirrorOptions,
  summary: MirrorSummary,
  lockLost: AbortSignal,
): Promise<void> {
  const meter = { writes: 0, reads: 0 };
  // Stopped by the caller, or the lock's session ended (another mirror may start now).
  const stopIfAsked = () => {
    options.signal?.throwIfAborted();
    lockLost.throwIfAborted();
  };
  const ctx: MirrorContext = {
    deps,
    // Always named, also for the active connection: if the active connection changes (a migration
    // switch), this run's id_map rows must not be applied to another connection.
    target: { accounting_connection_id: summary.connectionId },
    dryRun: summary.dryRun,
    meter,
    summary,
    progress: new ProgressReporter(deps.onProgress, () => ({
      kinds: summary.kinds,
      writeCalls: meter.writes,
    })),
    beforeCall: stopIfAsked,
  };
  const selected = new Set(options.kinds ?? MIRROR_KINDS);
  try {
    for (const kind of MIRROR_KINDS) {
      if (!selected.has(kind)) continue;
      stopIfAsked();
      await STEPS[kind](ctx);
    }
  } finally {
    summary.writeCalls = meter.writes;
    summary.readCalls = meter.reads;
  }
  deps.log.info(
    {
      connectionId: summary.connectionId,
      dryRun: summary.dryRun,
      writeCalls: meter.writes,
      ...countsOf(summary),
    },
    'chart of accounts mirrored',
  );
}

function countsOf(summary: MirrorSummary): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [kind, s] of Object.entries(summary.kinds)) {
    out[kind] =
      `created ${s.created}, updated ${s.updated}, deactivated ${s.deactivated}, reactivated ${s.reactivated}, ` +
      `hidden ${s.hidden}, adopted ${s.adopted}, failed ${s.failed.length}`;
  }
  return out;
}

export { contentHash } from './content-hash.ts';
export { fieldOptionOps } from './kinds/field-options.ts';
export { fieldOps } from './kinds/fields.ts';
export { glAccountOps } from './kinds/gl-accounts.ts';
export { taxCodeOptionOps, taxRateOps } from './kinds/tax.ts';
export { vendorOps } from './kinds/vendors.ts';
export { mirrorLockName } from './lock-name.ts';
export type { MapScope, RemoteItem } from './model.ts';
export { chartCounts, countMirrored, forgetConnection, recordMapped } from './store.ts';
export type { ChartPlatform, ChartSource } from './types.ts';
