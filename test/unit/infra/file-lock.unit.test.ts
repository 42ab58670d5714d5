import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EXIT } from '../../../src/exit-codes.ts';
import { LockUnavailableError, withFileLock } from '../../../src/infra/file-lock.ts';

const run = promisify(execFile);
const RACER = fileURLToPath(new URL('./support/lock-racer.ts', import.meta.url));
let dir = '';
let lock = '';

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ledgersync-lock-'));
  lock = join(dir, 'server.lock');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A pid no process has: a short-lived child's, after it exited. */
async function deadPid(): Promise<number> {
  const { stdout } = await run(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(stdout);
}

const aged = async (path: string, seconds: number) => {
  const then = new Date(Date.now() - seconds * 1000);
  await utimes(path, then, then);
};

describe('withFileLock', () => {
  it('holds a lock that names its pid while fn runs, and removes it after', async () => {
    const seen = await withFileLock(lock, () => readFile(lock, 'utf8'));
    expect(seen).toBe(String(process.pid));
    await expect(readFile(lock, 'utf8')).rejects.toThrow(/ENOENT/);
  });

  it('takes over an empty lock left by a kill between creating and writing it, once a few seconds old', async () => {
    await writeFile(lock, '');
    await aged(lock, 10);
    expect(await withFileLock(lock, async () => 'ran', { waitMs: 2_000 })).toBe('ran');
  });

  it('takes over a lock naming a process that no longer exists', async () => {
    await writeFile(lock, String(await deadPid()));
    expect(await withFileLock(lock, async () => 'ran', { waitMs: 2_000 })).toBe('ran');
  });

  it('a fresh empty lock, or a live holder, is waited for and then refused with exit 69', async () => {
    await writeFile(lock, '');
    const empty = await withFileLock(lock, async () => 'ran', { waitMs: 300 }).catch((e: unknown) => e);
    expect(empty).toBeInstanceOf(LockUnavailableError);
    await writeFile(lock, String(process.pid));
    const held = await withFileLock(lock, async () => 'ran', { waitMs: 300 }).catch((e: unknown) => e);
    expect(held).toBeInstanceOf(LockUnavailableError);
    expect((held as LockUnavailableError).exitCode).toBe(EXIT.unavailable);
    expect((held as Error).message).toContain(`by process ${process.pid}`);
  });

  it('leaves no pid files of its own behind', async () => {
    await withFileLock(lock, async () => undefined);
    await writeFile(lock, String(await deadPid()));
    await withFileLock(lock, async () => undefined);
    const { readdir } = await import('node:fs/promises');
    expect(await readdir(dir)).toEqual([]);
  });

  async function race(racers: number): Promise<string[]> {
    // Far enough ahead that every racer has loaded (tsx) before the instant on a loaded machine.
    const startAt = Date.now() + 4_000;
    const outputs = await Promise.all(
      Array.from({ length: racers }, () =>
        run(process.execPath, ['--import', 'tsx/esm', RACER, lock, String(startAt)]).then((r) =>
          r.stdout.trim(),
        ),
      ),
    );
    return outputs.sort();
  }

  it('processes racing for a free lock: exactly one holds it, the others are refused with 69', async () => {
    expect(await race(4)).toEqual(['held', 'refused 69', 'refused 69', 'refused 69']);
  }, 30_000);

  it('processes racing to take over a stale lock: exactly one holds it', async () => {
    await writeFile(lock, String(await deadPid()));
    expect(await race(4)).toEqual(['held', 'refused 69', 'refused 69', 'refused 69']);
  }, 30_000);
});
