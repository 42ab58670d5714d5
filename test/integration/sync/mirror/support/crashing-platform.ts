import type { PlatformClient } from '../../../../../src/platform/index.ts';
import type { ChartPlatform } from '../../../../../src/sync/mirror/types.ts';

/** The error a simulated kill throws: the mirror must not catch it. */
export class SimulatedCrash extends Error {
  override name = 'SimulatedCrash';
}

const WRITE = /^(upload|create|patch|put|delete)/;

/**
 * The platform client, killed at the `at`-th write call: `before` it reaches the platform, or
 * `after` the platform applied it but before the caller sees the answer (so id_map never hears
 * of it: the window docs/platform.md F12 makes dangerous for insert-only uploads).
 */
export function crashingPlatform(
  client: PlatformClient,
  at: number,
  when: 'before' | 'after',
): ChartPlatform {
  let writes = 0;
  const chart = new Proxy(client.chart, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function' || typeof property !== 'string' || !WRITE.test(property)) return value;
      return async (...args: unknown[]) => {
        writes++;
        if (writes === at && when === 'before')
          throw new SimulatedCrash(`killed before write ${at} (${property})`);
        const n = writes;
        try {
          const result = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
          if (n === at) throw new SimulatedCrash(`killed after write ${at} (${property})`);
          return result;
        } catch (error) {
          // Killed after the platform answered, whatever it answered (a 7020 included).
          if (n === at && !(error instanceof SimulatedCrash))
            throw new SimulatedCrash(`killed after write ${at}`);
          throw error;
        }
      };
    },
  });
  return { chart };
}
