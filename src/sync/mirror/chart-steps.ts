import { collect, type MirrorContext, runScope, scopeOf } from './context.ts';
import { desiredFieldOption, fieldOptionOps } from './kinds/field-options.ts';
import { desiredField, fieldOps } from './kinds/fields.ts';
import { desiredGlAccount, glAccountOps } from './kinds/gl-accounts.ts';
import { desiredVendor, vendorOps } from './kinds/vendors.ts';
import { loadRows } from './store.ts';

/** GL accounts (F8), one scope, batches of 500. */
export async function mirrorGlAccounts(ctx: MirrorContext): Promise<void> {
  const items = (await collect(ctx.deps.erp.glAccounts())).map(desiredGlAccount);
  await runScope(
    ctx,
    scopeOf(ctx, 'gl_account'),
    glAccountOps(ctx.deps.platform.chart, ctx.target, ctx.meter),
    items,
  );
}

/** Custom fields (F9), one per call. */
export async function mirrorFields(ctx: MirrorContext): Promise<void> {
  const items = (await erpFields(ctx)).map(desiredField);
  await runScope(ctx, scopeOf(ctx, 'field'), fieldOps(ctx.deps.platform.chart, ctx.target, ctx.meter), items);
}

/**
 * Options of every ERP field (F10), under the field's svc_id from id_map. A field not on the
 * platform has no svc_id to upload under: its options wait for it (a failure when it is active).
 * Options of a field gone from the ERP are left as they are: the field's deactivation covers them.
 */
export async function mirrorFieldOptions(ctx: MirrorContext): Promise<void> {
  const fieldRows = await loadRows(ctx.deps.sql, scopeOf(ctx, 'field'));
  const summary = ctx.summary.kinds.field_option;
  for (const field of await erpFields(ctx)) {
    const svcId = fieldRows.get(field.id)?.svcId ?? null;
    if (svcId === null && !field.active) continue;
    if (svcId === null && !ctx.dryRun) {
      summary.failed.push({
        remoteId: field.id,
        action: 'create',
        reason: `options of field ${field.id} not uploaded: the field is not on the platform yet`,
      });
      continue;
    }
    const items = (await collect(ctx.deps.erp.fieldOptions(field.id))).map(desiredFieldOption);
    const ops = fieldOptionOps(ctx.deps.platform.chart, ctx.target, ctx.meter, svcId ?? '(new field)');
    await runScope(ctx, scopeOf(ctx, 'field_option', field.id), ops, items, svcId === null);
  }
}

/** Accounting vendors (F11), batches of 500. */
export async function mirrorVendors(ctx: MirrorContext): Promise<void> {
  const items = (await collect(ctx.deps.erp.vendors())).map(desiredVendor);
  await runScope(
    ctx,
    scopeOf(ctx, 'vendor'),
    vendorOps(ctx.deps.platform.chart, ctx.target, ctx.meter),
    items,
  );
}

async function erpFields(ctx: MirrorContext) {
  ctx.erpFields ??= await collect(ctx.deps.erp.customFields());
  return ctx.erpFields;
}
