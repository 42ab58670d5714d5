import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * A Lua script run by EVALSHA, loaded with EVAL the first time a server does not know it
 * (NOSCRIPT after a restart or on a fresh server). Works on any Redis instance it is given,
 * without adding commands to that instance.
 */
export class RedisScript {
  private readonly sha: string;

  constructor(
    private readonly lua: string,
    private readonly numberOfKeys: number,
  ) {
    this.sha = createHash('sha1').update(lua).digest('hex');
  }

  async run(redis: Redis, keys: string[], args: Array<string | number>): Promise<unknown> {
    if (keys.length !== this.numberOfKeys) throw new Error(`script expects ${this.numberOfKeys} keys`);
    try {
      return await redis.evalsha(this.sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return redis.eval(this.lua, keys.length, ...keys, ...args);
    }
  }
}
