import { acquireFileLock } from '../../../../src/infra/file-lock.ts';

/**
 * One racer for the lock tests: waits until the start instant (argv[3], ms since the epoch), tries
 * the lock at argv[2] waiting at most 300 ms, and prints "held" (then keeps it 3 s) or "refused".
 */
const [path, startAt] = [process.argv[2]!, Number(process.argv[3])];
await new Promise((r) => setTimeout(r, Math.max(0, startAt - Date.now())));
try {
  await acquireFileLock(path, { waitMs: 300 });
  process.stdout.write('held\n');
  await new Promise((r) => setTimeout(r, 3_000));
} catch (error) {
  process.stdout.write(`refused ${(error as { exitCode?: number }).exitCode}\n`);
}
