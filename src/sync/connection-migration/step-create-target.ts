import type { AccountingConnection, ConnectionSettingsInput } from '../../platform/index.ts';
import { okValues } from '../../platform/index.ts';
import { connectionLabel, notInactiveApi, targetMissing } from './blockers.ts';
import { checkpoint, moved, type StepContext, type StepOutcome, stopped } from './step-context.ts';
import { recordTarget, snapshotConnections } from './store.ts';

/**
 * Step 3: the inactive API connection (docs/platform.md G31, first row; F6
 * is_active: false). A run that crashed after the platform created it but before it was recorded
 * finds it again: the one new inactive API connection with this provider name since the
 * migration's snapshot of connection ids. A --target connection is checked instead of created.
 */
export async function createTargetStep(ctx: StepContext): Promise<StepOutcome> {
  const { deps, row } = ctx;
  let target: AccountingConnection;
  let how: string;
  if (row.requestedTarget && row.targetConnectionId) {
    const found = await deps.platform.connection.get(row.targetConnectionId);
    if (!found) return stopped('blocked', targetMissing(row.targetConnectionId));
    target = found;
    how = 'using the connection given with --target';
  } else {
    const found = await findOrCreate(ctx);
    target = found.connection;
    how = found.adopted ? 'found the one an interrupted run created' : 'created';
  }
  if (target.is_active || target.connection_type !== 'API') return stopped('blocked', notInactiveApi(target));
  await checkpoint(ctx, 'create_target', 'applied');
  const next = moved(
    await recordTarget(deps.sql, row.id, {
      id: target.id,
      // The platform may leave the name out (docs/platform.md F37): it is the one this step asked for.
      remoteProviderName: target.remote_provider_name ?? row.provider,
      isActive: target.is_active,
    }),
    row.id,
    'backed_up',
    'target_created',
  );
  return {
    ok: true,
    row: next,
    detail: `inactive API connection ${connectionLabel(target)} ${how}`,
  };
}

async function findOrCreate(
  ctx: StepContext,
): Promise<{ connection: AccountingConnection; adopted: boolean }> {
  const { deps, row } = ctx;
  const all = okValues(await deps.platform.connection.all());
  const before = new Set(
    await snapshotConnections(
      deps.sql,
      row.id,
      all.map((c) => c.id),
    ),
  );
  const adoptable = all
    .filter(
      (c) =>
        !before.has(c.id) &&
        c.connection_type === 'API' &&
        !c.is_active &&
        c.remote_provider_name === row.provider,
    )
    .sort((a, b) => a.created_at.localeCompare(b.created_at));
  if (adoptable[0]) return { connection: adoptable[0], adopted: true };
  const source = all.find((c) => c.id === row.sourceConnectionId);
  const connection = await deps.platform.connection.create({
    remote_provider_name: row.provider,
    is_active: false,
    // The customer keeps the behaviour they chose (sync buttons, vendor creation, vendor credits).
    ...(source ? { settings: settingsOf(source) } : {}),
  });
  return { connection, adopted: false };
}

function settingsOf(source: AccountingConnection): ConnectionSettingsInput {
  return { ...source.settings };
}
