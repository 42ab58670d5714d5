import type { Logger } from '../log.ts';

type Cleanup = () => Promise<void>;
const cleanups: Cleanup[] = [];
let installed = false;
let shuttingDown = false;

/** Runs the registered cleanups once, newest first (stop workers before the servers they use). */
export async function runCleanups(): Promise<void> {
  while (cleanups.length > 0) {
    const cleanup = cleanups.pop();
    await cleanup?.().catch(() => undefined);
  }
}

/**
 * Registers a cleanup for SIGINT/SIGTERM: the first signal runs every cleanup then exits with
 * 128+signal; a second signal exits at once.
 */
export function onShutdown(cleanup: Cleanup, log: Logger): void {
  cleanups.push(cleanup);
  if (installed) return;
  installed = true;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (shuttingDown) process.exit(130);
      shuttingDown = true;
      log.info({ signal }, 'shutting down');
      void runCleanups().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
    });
  }
}
