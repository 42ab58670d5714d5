import type { CustomField } from '../../erp/index.ts';
import type { Meter, Target } from './kinds/common.ts';
import { mirrorScope } from './mirror-scope.ts';
import type { KindOps, MapScope } from './model.ts';
import type { ProgressReporter } from './progress.ts';
import type { MirrorDeps, MirrorKind, MirrorSummary } from './types.ts';

/** One mirror run: where it writes, what it has counted, how it stops. */
export interface MirrorContext {
  deps: MirrorDeps;
  /** The connection written to; every call carries it (docs/platform.md G30). */
  target: Target;
  dryRun: boolean;
  meter: Meter;
  summary: MirrorSummary;
  progress: ProgressReporter;
  beforeCall: () => void;
  /** The ERP's custom fields, read once for the field and field-option steps. */
  erpFields?: CustomField[];
}

export function scopeOf(ctx: MirrorContext, kind: MirrorKind, parentRemoteId = ''): MapScope {
  return { connectionId: ctx.target.accounting_connection_id, kind, parentRemoteId };
}

export async function collect<T>(source: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of source) items.push(item);
  return items;
}

/** Runs one scope with the context's summary, progress and stop check. */
export function runScope(
  ctx: MirrorContext,
  scope: MapScope,
  ops: KindOps,
  items: Parameters<typeof mirrorScope>[0]['items'],
  assumeEmpty = false,
): Promise<void> {
  return mirrorScope({
    sql: ctx.deps.sql,
    log: ctx.deps.log,
    scope,
    ops,
    items,
    summary: ctx.summary.kinds[scope.kind],
    dryRun: ctx.dryRun,
    progress: ctx.progress,
    beforeCall: ctx.beforeCall,
    assumeEmpty,
  });
}
