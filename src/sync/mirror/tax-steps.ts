import { collect, type MirrorContext, runScope, scopeOf } from './context.ts';
import {
  desiredTaxCodeField,
  desiredTaxCodeOption,
  desiredTaxRate,
  taxCodeFieldOps,
  taxCodeOptionOps,
  taxRateOps,
} from './kinds/tax.ts';
import { loadRows } from './store.ts';

/** Tax rates (F13), naming their GL account by the svc_id id_map holds for it. */
export async function mirrorTaxRates(ctx: MirrorContext): Promise<void> {
  const glRows = await loadRows(ctx.deps.sql, scopeOf(ctx, 'gl_account'));
  const remoteBySvc = new Map<string, string>();
  for (const row of glRows.values()) if (row.svcId) remoteBySvc.set(row.svcId, row.remoteId);
  // A dry run plans the GL accounts' creation too: their svc_ids do not exist yet.
  const glSvcId = (remoteId: string) => glRows.get(remoteId)?.svcId ?? (ctx.dryRun ? '(planned)' : null);
  // A rate may name the account by remote id too (the stub accepts both): map only svc_ids.
  const glRemoteId = (id: string) => remoteBySvc.get(id) ?? id;
  const items = (await collect(ctx.deps.erp.taxRates())).map((rate) => desiredTaxRate(rate, glSvcId));
  const ops = taxRateOps(ctx.deps.platform.chart, ctx.target, ctx.meter, glRemoteId);
  await runScope(ctx, scopeOf(ctx, 'tax_rate'), ops, items);
}

/** The connection's tax code field (F13), created once the ERP has any tax code. */
export async function mirrorTaxCodeField(ctx: MirrorContext): Promise<void> {
  const codes = await collect(ctx.deps.erp.taxCodes());
  if (codes.length === 0) return;
  const ops = taxCodeFieldOps(ctx.deps.platform.chart, ctx.target, ctx.meter);
  await runScope(ctx, scopeOf(ctx, 'tax_code_field'), ops, [desiredTaxCodeField()]);
}

/** Tax code options (F13), after their field and rates. */
export async function mirrorTaxCodeOptions(ctx: MirrorContext): Promise<void> {
  const fieldRows = await loadRows(ctx.deps.sql, scopeOf(ctx, 'tax_code_field'));
  const codes = await collect(ctx.deps.erp.taxCodes());
  const fieldMirrored = [...fieldRows.values()].some((r) => r.svcId !== null);
  if (!fieldMirrored && !ctx.dryRun) {
    if (codes.some((c) => c.active)) {
      ctx.summary.kinds.tax_code_option.failed.push({
        remoteId: '(tax codes)',
        action: 'create',
        reason: 'tax code options not uploaded: the tax code field is not on the platform yet',
      });
    }
    return;
  }
  const rateRows = await loadRows(ctx.deps.sql, scopeOf(ctx, 'tax_rate'));
  const rateMirrored = (id: string) => ctx.dryRun || Boolean(rateRows.get(id)?.svcId);
  const items = codes.map((code) => desiredTaxCodeOption(code, rateMirrored));
  const ops = taxCodeOptionOps(ctx.deps.platform.chart, ctx.target, ctx.meter);
  await runScope(ctx, scopeOf(ctx, 'tax_code_option'), ops, items);
}
