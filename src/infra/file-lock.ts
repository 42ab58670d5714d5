import { randomBytes } from 'node:crypto';
import { link, readdir, readFile, stat, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { EXIT, ExpectedFailure } from '../exit-codes.ts';
import { processAlive } from './process-alive.ts';

/**
 * How long a command waits for a lock whose holder is alive. The holder of an embedded server's
 * lock is starting or stopping that server: a whole first `db migrate` on embedded servers
 * (initdb included) took 7 s and a warm one 5 to 9 s on 2 loaded cores, the lock held for a part
 * of that, so 20 s leaves a margin and still ends long before anyone reaches for Ctrl-C.
 */
const LOCK_WAIT_MS = 20_000;
/**
 * A lock file without a readable pid is stale once it is this old. Locks written here are never
 * empty (the pid is in the file before it appears); an empty one is left by an older version
 * killed between creating the file and writing it, or by a crash of the file system.
 */
const UNREADABLE_LOCK_STALE_MS = 3_000;

export class LockUnavailableError extends ExpectedFailure {
  override readonly exitCode = EXIT.unavailable;
  constructor(path: string, holder: number | null, waitedMs: number) {
    super(
      `${path} is still held${holder ? ` by process ${holder}` : ''} after ${Math.round(waitedMs / 1000)} s ` +
        '(another ledgersync process is starting or stopping an embedded server); run the command again ' +
        `once it has finished${holder ? `, or end that process` : ''}`,
    );
    this.name = 'LockUnavailableError';
  }
}

export interface FileLockOptions {
  waitMs?: number;
  unreadableStaleMs?: number;
}

/**
 * Runs fn while holding an exclusive lock file that names its holder's pid. Safe at every
 * instant of a kill: the pid is written to a file of our own first, which is then hard-linked
 * into place (link(2) fails when the lock exists), so the lock never exists without its pid. A
 * lock naming a dead process, or unreadable and older than a few seconds, is stale and taken
 * over; a live holder is waited for up to `waitMs`, then LockUnavailableError (exit 69).
 */
export async function withFileLock<T>(
  path: string,
  fn: () => Promise<T>,
  options: FileLockOptions = {},
): Promise<T> {
  await acquireFileLock(path, options);
  try {
    return await fn();
  } finally {
    await unlink(path).catch(() => undefined);
  }
}

export async function acquireFileLock(path: string, options: FileLockOptions = {}): Promise<void> {
  const waitMs = options.waitMs ?? LOCK_WAIT_MS;
  const staleMs = options.unreadableStaleMs ?? UNREADABLE_LOCK_STALE_MS;
  const started = Date.now();
  for (;;) {
    if (await tryCreate(path)) return sweepOwnFiles(path);
    const seen = await lockState(path);
    if (seen && isStale(seen, staleMs)) await breakStale(path, seen, staleMs);
    else if (Date.now() - started > waitMs)
      throw new LockUnavailableError(path, seen?.holder ?? null, waitMs);
    await new Promise((r) => setTimeout(r, 50 + Math.random() * 50));
  }
}

/** Creates `path` holding our pid, atomically; false when it exists already. */
async function tryCreate(path: string): Promise<boolean> {
  const own = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.pid`;
  await writeFile(own, String(process.pid));
  try {
    await link(own, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await unlink(own).catch(() => undefined);
  }
}

interface LockState {
  ino: number;
  ageMs: number;
  holder: number | null;
}

async function lockState(path: string): Promise<LockState | undefined> {
  try {
    const [info, text] = await Promise.all([stat(path), readFile(path, 'utf8')]);
    const holder = /^\d+$/.test(text.trim()) ? Number(text.trim()) : null;
    return { ino: info.ino, ageMs: Date.now() - info.mtimeMs, holder: holder || null };
  } catch {
    return undefined; // gone meanwhile: try again
  }
}

function isStale(state: LockState, unreadableStaleMs: number): boolean {
  return state.holder === null ? state.ageMs > unreadableStaleMs : !processAlive(state.holder);
}

/**
 * Removes a stale lock, unless it changed since it was judged. Two waiters may judge the same
 * stale lock: without care the second would unlink the fresh lock the first just created. So the
 * removal happens under a second lock (`.break`, held for an instant), after checking that the
 * file is still the one judged stale (same inode, still stale).
 */
async function breakStale(path: string, seen: LockState, unreadableStaleMs: number): Promise<void> {
  const breaker = `${path}.break`;
  if (!(await tryCreate(breaker))) {
    // A breaker left by a process killed in that instant is cleared the same way, unguarded: it
    // guards nothing but this step.
    const other = await lockState(breaker);
    if (other && isStale(other, unreadableStaleMs)) await unlink(breaker).catch(() => undefined);
    return;
  }
  try {
    const now = await lockState(path);
    if (now && now.ino === seen.ino && isStale(now, unreadableStaleMs))
      await unlink(path).catch(() => undefined);
  } finally {
    await unlink(breaker).catch(() => undefined);
  }
}

/** Removes the pid files of processes killed between writing one and linking it. */
async function sweepOwnFiles(path: string): Promise<void> {
  const prefix = `${basename(path)}.`;
  const names = await readdir(dirname(path)).catch(() => [] as string[]);
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith('.pid')) continue;
    const pid = Number(name.split('.').at(-3));
    if (pid && !processAlive(pid)) await unlink(join(dirname(path), name)).catch(() => undefined);
  }
}

/**
 * The same lock from a watchdog shell (which stops a server once its users are gone, and must not
 * do so while a command is attaching to it). `try_lock` takes the lock at $LOCK the same way
 * (pid file, then ln, which is link(2)) and fails at once when it is held.
 */
export const SHELL_TRY_LOCK = `
try_lock() {
  printf %s $$ > "$LOCK.$$.sh"
  if ln "$LOCK.$$.sh" "$LOCK" 2>/dev/null; then rm -f "$LOCK.$$.sh"; return 0; fi
  rm -f "$LOCK.$$.sh"
  return 1
}
lock_holder_dead() {
  holder=$(cat "$LOCK" 2>/dev/null)
  [ -n "$holder" ] && ! kill -0 "$holder" 2>/dev/null
}
`;
