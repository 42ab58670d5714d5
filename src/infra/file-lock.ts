import { open, readFile, unlink } from 'node:fs/promises';
import { processAlive } from './process-alive.ts';

/**
 * Runs fn while holding an exclusive lock file (created with O_EXCL, holding our pid). A lock left
 * by a process that no longer exists is taken over, so a killed run never blocks the next one.
 */
export async function withFileLock<T>(path: string, fn: () => Promise<T>, timeoutMs = 120_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    try {
      const handle = await open(path, 'wx');
      await handle.writeFile(String(process.pid));
      await handle.close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(await readFile(path, 'utf8').catch(() => '0'));
      if (holder && !processAlive(holder)) await unlink(path).catch(() => undefined);
      if (Date.now() - started > timeoutMs) throw new Error(`Timed out waiting for the lock ${path}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  try {
    return await fn();
  } finally {
    await unlink(path).catch(() => undefined);
  }
}
