import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../src/infra/index.ts';
import { runCli } from '../../support/cli.ts';
import { useTestRedis } from '../../support/redis.ts';
import { useSyncWorld, worldEnv } from '../../support/sync-world.ts';
import { deliveriesSettled, type StubWebhooks, waitFor } from '../support.ts';
import { startWorkerProcess, type WorkerProcess } from '../worker-process.ts';

/**
 * `npx ledgersync worker` as a real process, after the platform lost its webhook subscription (a
 * restarted `ledgersync try`; docs/platform.md F20, F32): the worker checks the platform's list
 * when it starts, registers again with one warning, and `status` says so. It used to trust its
 * own row: webhooks and the sync button stopped, and nothing said so.
 */
const world = useSyncWorld({ settings: { transaction_sync_button_enabled: true } });
const redis = useTestRedis();
let worker: WorkerProcess | undefined;

beforeAll(async () => {
  await world.seed({ seed: 57, transactions: 30, reimbursements: 0, bills: 0, transfers: 0, cashbacks: 0 });
});

afterAll(async () => {
  await worker?.stop('SIGKILL');
});

function env(port: number): Record<string, string> {
  return {
    ...worldEnv(world, redis),
    PLATFORM_CONNECTION_ID: world.connectionId,
    SERVER_HOST: '127.0.0.1',
    SERVER_PORT: String(port),
    WEBHOOK_PUBLIC_URL: `http://127.0.0.1:${port}/webhooks`,
    // No scheduled run during this test: the work comes from the webhook.
    SCHEDULE_OBJECT_SYNC_WEEKDAYS: '0 0 1 1 *',
    SCHEDULE_OBJECT_SYNC_WEEKENDS: '0 0 1 1 *',
    SCHEDULE_COA_MIRROR: '0 0 1 1 *',
  };
}

const activeOnStub = async (endpoint: string) =>
  (await world.control<StubWebhooks>('GET', '/__stub/webhooks')).subscriptions.filter(
    (s) => s.status === 'active' && s.endpoint_url === endpoint,
  );

describe('a worker whose webhook subscription the platform lost (docs/platform.md F32)', () => {
  it('F32: a restarted worker finds the subscription missing, registers again, and a press reaches it; status warns', async () => {
    const port = await freePort();
    const endpoint = `http://127.0.0.1:${port}/webhooks`;
    worker = startWorkerProcess([], env(port));
    await worker.waitForLine(/ledgersync worker running/);
    const [first] = await waitFor(async () => {
      const active = await activeOnStub(endpoint);
      return active.length > 0 ? active : null;
    });
    expect(await worker.stop('SIGTERM')).toBe(0);

    // The platform forgets every subscription (as a restarted stub does); the worker's row stays.
    await world.control('DELETE', '/__stub/webhooks');
    worker = startWorkerProcess([], env(port));
    await worker.waitForLine(/ledgersync worker running/);
    const [again] = await waitFor(async () => {
      const active = await activeOnStub(endpoint);
      return active.length > 0 ? active : null;
    });
    expect(again!.id).not.toBe(first!.id);
    const warned = worker
      .output()
      .split('\n')
      .filter((l) => l.includes("no longer has this worker's webhook subscription"));
    expect(warned).toHaveLength(1);

    // A sync-button press after that reaches the worker and is answered.
    const press = await world.control<{ sync_request_id: string }>('POST', '/__stub/sync-button', {
      object_type: 'TRANSACTION',
      limit: 5,
    });
    await deliveriesSettled(world);
    await waitFor(
      async () => {
        const [row] = await world.db.sql<{ state: string }[]>`
          select state from sync_requests where sync_request_id = ${press.sync_request_id}`;
        return row?.state === 'ANSWERED';
      },
      { what: 'the press to be answered', timeoutMs: 30_000 },
    );

    const status = await runCli(['status'], env(port));
    expect(status.stdout).toMatch(
      new RegExp(`no longer had the webhook subscription of ${endpoint} .*Registered again as ${again!.id}`),
    );
    expect(await worker.stop('SIGTERM')).toBe(0);
  }, 90_000);
});
