import type { Redis } from 'ioredis';
import { silentLogger } from '../../../../src/log.ts';
import { type RateLimiterOptions, RedisRateLimiter } from '../../../../src/platform/rate-limiter.ts';

type Told = Partial<RateLimiterOptions> & Pick<RateLimiterOptions, 'egressId' | 'windowMs' | 'windowPadMs'>;

/**
 * A limiter of one permit per window, with no margin or gap unless told, on a connection that is
 * open and has the script loaded: on a cold one the first ask waits for both after askedAt, and
 * what is dated from the ask is later by that (safe, not exact).
 */
export async function warmLimiter(connection: Redis, prefix: string, told: Told): Promise<RedisRateLimiter> {
  const options = { max: 1, margin: 0, minGapMs: 0, ...told } as RateLimiterOptions;
  const warmOptions = { ...options, egressId: `${options.egressId}-warm` };
  const warm = new RedisRateLimiter(connection, prefix, warmOptions, silentLogger);
  await warm.acquire();
  warm.close();
  return new RedisRateLimiter(connection, prefix, options, silentLogger);
}
