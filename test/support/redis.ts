import { Redis } from 'ioredis';
import { afterAll, inject } from 'vitest';
import { uniqueName } from './unique.ts';

export interface TestRedis {
  readonly url: string;
  /** Key prefix (and BullMQ prefix) unique to this file. */
  readonly prefix: string;
  /** A new connection, closed in afterAll. BullMQ workers need maxRetriesPerRequest: null. */
  connect(options?: { bullmq?: boolean }): Redis;
}

/** Gives the calling test file its own key prefix on the shared Redis; its keys go in afterAll. */
export function useTestRedis(): TestRedis {
  const url = inject('redisUrl');
  const prefix = uniqueName('ls');
  const connections: Redis[] = [];
  afterAll(async () => {
    const admin = new Redis(url, { lazyConnect: true });
    await admin.connect();
    let cursor = '0';
    do {
      const [next, keys] = await admin.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await admin.del(...keys);
    } while (cursor !== '0');
    await admin.quit();
    await Promise.all(
      connections.map((c) => (c.status === 'end' ? undefined : c.quit().catch(() => c.disconnect()))),
    );
  });
  return {
    url,
    prefix,
    connect(options = {}) {
      const connection = new Redis(url, options.bullmq ? { maxRetriesPerRequest: null } : {});
      connections.push(connection);
      return connection;
    },
  };
}
