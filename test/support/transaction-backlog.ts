import { KIND_SPECS } from '../../src/sync/objects/index.ts';
import type { SyncWorld } from './sync-world.ts';

const DAY = 86_400_000;

/**
 * Seeds `count` ready transactions (nothing else) dated evenly over the last `days` days, as a
 * split bulk read sees a backlog, and returns the ids the platform lists as ready.
 */
export async function seedTransactionBacklog(
  world: SyncWorld,
  options: { count: number; seed: number; days?: number },
): Promise<Set<string>> {
  const now = Date.now();
  await world.seed({
    seed: options.seed,
    transactions: options.count,
    reimbursements: 0,
    transfers: 0,
    cashbacks: 0,
    bills: 0,
    ready_fraction: 1,
    synced_fraction: 0,
    vendor_creation_fraction: 0,
    dates: {
      transactions: {
        from: new Date(now - (options.days ?? 90) * DAY).toISOString(),
        to: new Date(now).toISOString(),
      },
    },
  });
  const ready = new Set<string>();
  for await (const item of world.platform.objects.ready(KIND_SPECS.transactions.list))
    if (item.ok) ready.add(item.value.id);
  return ready;
}
