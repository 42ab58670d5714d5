import { expect } from 'vitest';
import { type RunningWorkers, startWorkers } from '../../../../jobs/worker.ts';
import type { ErpAdapter } from '../../../../src/erp/index.ts';
import type { Logger } from '../../../../src/log.ts';
import { createQueues, type Queues } from '../../../../src/queue/index.ts';
import {
  ensureSubscription,
  type RunningServer,
  startServer,
  webhookSecrets,
} from '../../../../src/server/index.ts';
import type { TestRedis } from '../../../support/redis.ts';
import type { SyncWorld } from '../../../support/sync-world.ts';
import { appFor } from '../../support.ts';

/** The worker's side of the sync button, up and subscribed to the stub's events. */
export interface ButtonRig {
  queues: Queues;
  server: RunningServer;
  workers: RunningWorkers;
  /** The webhook receiver's URL, as the stub's subscription names it. */
  endpoint: string;
  close(): Promise<void>;
}

/**
 * Everything between a press in the stub and the ERP, as in production: the queues, the server
 * with the webhook receiver, an active subscription of the stub to it, and the workers, all
 * writing to `erp` and logging to `log`.
 */
export async function startButtonRig(
  world: SyncWorld,
  redis: TestRedis,
  options: {
    erp: ErpAdapter;
    log: Logger;
    watchdogLeadMs?: number;
    syncWindowMs?: number;
    /** How often the workers look for presses whose jobs Redis lost (jobs/recover-presses.ts). */
    recoverPressesEveryMs?: number;
  },
): Promise<ButtonRig> {
  const { log } = options;
  const queues = createQueues({ redisUrl: redis.url, prefix: redis.prefix });
  const app = appFor(world, redis, { erp: options.erp, log });
  let server: RunningServer | undefined;
  let endpoint: string;
  try {
    server = await startServer(
      {
        sql: world.db.sql,
        redis: app.redis,
        queues,
        connectionId: world.connectionId,
        log,
        secrets: webhookSecrets(world.db.sql),
        watchdogLeadMs: options.watchdogLeadMs,
        syncWindowMs: options.syncWindowMs,
      },
      { host: '127.0.0.1', port: 0 },
    );
    endpoint = `${server.url}/webhooks`;
    const registered = await ensureSubscription({
      sql: world.db.sql,
      platform: world.platform,
      log,
      publicUrl: endpoint,
    });
    expect(registered.status).toBe('active');
  } catch (error) {
    // What did start is closed here: the test file never got the rig to close.
    await server?.close();
    await queues.close();
    throw error;
  }
  const workers = startWorkers(app, {
    connection: { redisUrl: redis.url, prefix: redis.prefix },
    queues,
    // A press the workers enqueue again gets the receiver's watchdog lead.
    recoverPresses: { watchdogLeadMs: options.watchdogLeadMs, everyMs: options.recoverPressesEveryMs },
  });
  return {
    queues,
    server: server!,
    workers,
    endpoint,
    async close() {
      await server!.close();
      await workers.close(10_000);
      await queues.close();
    },
  };
}

/** A result the stub took for a row: its outcome and the request it was posted under. */
export interface Mark {
  /** When the stub took it (ms, the stub's clock). */
  at: number;
  object_id: string;
  result: string;
  sync_request_id: string | null;
}

/** Every result the stub took, in the order it took them. */
export async function stubMarks(world: SyncWorld): Promise<Mark[]> {
  return (await world.control<{ marks: Mark[] }>('GET', '/__stub/effects?include=marks&limit=100000')).marks;
}
