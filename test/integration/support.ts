import { createHmac } from 'node:crypto';
import type { AppContext } from '../../src/app/index.ts';
import { loadConfig } from '../../src/config.ts';
import type { ErpAdapter, ErpWrite } from '../../src/erp/index.ts';
import { type Logger, silentLogger } from '../../src/log.ts';
import type { TestRedis } from '../support/redis.ts';
import type { SyncWorld } from '../support/sync-world.ts';

export async function waitFor<T>(
  probe: () => Promise<T | null | undefined | false> | T | null | undefined | false,
  options: { timeoutMs?: number; intervalMs?: number; what?: string } = {},
): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 20_000);
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${options.what ?? 'a condition'}`);
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 50));
  }
}

/** The worker's view of the test world, as createAppContext would build it in production. */
export function appFor(
  world: SyncWorld,
  redis: TestRedis,
  options: { log?: Logger; erp?: ErpAdapter } = {},
): AppContext {
  return {
    config: loadConfig({ NODE_ENV: 'test', QUEUE_PREFIX: redis.prefix }),
    log: options.log ?? silentLogger,
    sql: world.db.sql,
    redis: redis.connect(),
    platform: world.platform,
    syncPlatform: world.syncPlatform,
    erp: options.erp ?? world.erp,
    close: async () => undefined,
  };
}

export interface StubWebhooks {
  subscriptions: { id: string; secret: string; status: string; endpoint_url: string }[];
  events: {
    id: string;
    type: string;
    created_at: string;
    object: { id: string; sync_request_id?: string };
  }[];
  deliveries: {
    event_id: string;
    type: string;
    attempt: number;
    status: number | null;
    error: string | null;
  }[];
  pending: number;
}

/** Waits until the stub has no delivery in flight or waiting for a retry. */
export async function deliveriesSettled(world: SyncWorld, timeoutMs = 30_000): Promise<StubWebhooks> {
  return waitFor(
    async () => {
      const hooks = await world.control<StubWebhooks>('GET', '/__stub/webhooks');
      return hooks.pending === 0 ? hooks : null;
    },
    { timeoutMs, what: 'webhook deliveries to settle', intervalMs: 100 },
  );
}

export function sign(body: string, secret: string): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

export async function postWebhook(url: string, body: string, signature?: string) {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(signature ? { 'x-svc-webhook-signature': signature } : {}),
    },
    body,
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

export interface GatedErp {
  erp: ErpAdapter;
  /** Kinds of the writes waiting at the gate now. */
  waiting: Set<string>;
  open(): void;
  close(): void;
}

/**
 * The world's ERP with a gate in front of postMany: while closed, writes wait, so a test can hold
 * a sync mid-run (to show what runs side by side, what is skipped and what the watchdog does).
 */
export function gatedErp(erp: ErpAdapter): GatedErp {
  let release: () => void = () => undefined;
  let gate: Promise<void> | null = null;
  const waiting = new Set<string>();
  const gated = new Proxy(erp, {
    get(target, prop, receiver) {
      if (prop === 'postMany') {
        return async (items: readonly ErpWrite[]) => {
          const kinds = [...new Set(items.map((i) => i.kind))];
          while (gate) {
            for (const k of kinds) waiting.add(k);
            await gate;
          }
          for (const k of kinds) waiting.delete(k);
          return target.postMany(items);
        };
      }
      const value = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return {
    erp: gated,
    waiting,
    open() {
      gate = null;
      release();
    },
    close() {
      if (gate) return;
      gate = new Promise((resolve) => {
        release = resolve;
      });
    },
  };
}
