import type { Blocker } from './blockers.ts';
import { readPlatformChart } from './platform-chart.ts';
import { checkpoint, moved, type StepContext, type StepOutcome, stopped } from './step-context.ts';
import { moveMigration, recordDetails } from './store.ts';
import { describeDifferences, type Verification, verifyPreload } from './verify.ts';

/**
 * Step 5: read the new connection's chart back from the platform and compare it with the ERP
 * (counts and remote ids) before asking for ready-to-migrate, which cannot be taken back.
 */
export async function verifyStep(ctx: StepContext): Promise<StepOutcome> {
  const { deps, row } = ctx;
  const target = row.targetConnectionId!;
  const chart = await readPlatformChart(deps.platform, target);
  const verification = await verifyPreload(deps.erp, chart);
  if (!verification.ok) {
    await recordDetails(deps.sql, row.id, row.state, { verification });
    return stopped('incomplete', mismatch(target, verification, chart.unreadable.length));
  }
  await checkpoint(ctx, 'verify', 'applied');
  const next = moved(
    await moveMigration(deps.sql, row.id, 'preloaded', 'verified', { verification }),
    row.id,
    'preloaded',
    'verified',
  );
  const line = Object.entries(verification.lists)
    .map(([list, l]) => `${l.platform} ${list.replaceAll('_', ' ')}`)
    .join(', ');
  return { ok: true, row: next, detail: `preload verified, identical to the ERP: ${line}` };
}

function mismatch(target: string, verification: Verification, unreadable: number): Blocker {
  const lines = describeDifferences(verification);
  if (unreadable > 0) lines.push(`${unreadable} items on the platform could not be read`);
  return {
    code: 'verification_failed',
    message: `The chart of the new connection ${target} does not match the ERP:\n  ${lines.join('\n  ')}`,
    fix:
      'Run `npx ledgersync migrate prepare` again: the preload runs again and repairs what is missing. If the ' +
      'difference stays, check the items named above in the ERP.',
    details: verification,
  };
}
