import { execFile } from 'node:child_process';
import { access, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Debian's package: CI installs it with `apt-get install -y --no-install-recommends chromium`. */
export const CHROMIUM_PACKAGE = 'chromium';
const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

async function found(): Promise<string | null> {
  const paths = process.env.CHROMIUM_PATH ? [process.env.CHROMIUM_PATH, ...CANDIDATES] : CANDIDATES;
  for (const path of paths) if (await exists(path)) return path;
  return null;
}

async function aptInstall(): Promise<void> {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const install = () =>
    run('apt-get', ['install', '-y', '--no-install-recommends', CHROMIUM_PACKAGE], {
      env,
      timeout: 900_000,
      maxBuffer: 64 * 1024 * 1024,
    });
  try {
    await install();
  } catch {
    // Stale or missing package lists are the usual cause: refresh them once and try again.
    await run('apt-get', ['update'], { env, timeout: 300_000, maxBuffer: 64 * 1024 * 1024 });
    await install();
  }
}

function reason(error: unknown): string {
  const e = error as { stderr?: string; message?: string };
  return (e.stderr?.trim().split('\n').slice(-5).join('\n') || e.message || String(error)).slice(0, 2000);
}

/**
 * The Chromium binary, installed from Debian's packages when missing. Throws with the reason
 * when it cannot be had: a browser test must fail then, never skip.
 */
export async function ensureChromium(): Promise<string> {
  const path = await found();
  if (path) return path;
  if (process.getuid?.() !== 0) {
    throw new Error(
      `chromium is not installed and this user cannot install it: run \`apt-get install -y --no-install-recommends ${CHROMIUM_PACKAGE}\` as root, or set CHROMIUM_PATH`,
    );
  }
  try {
    await aptInstall();
  } catch (error) {
    throw new Error(`chromium could not be installed with apt-get: ${reason(error)}`);
  }
  const installed = await found();
  if (!installed) throw new Error(`apt-get installed ${CHROMIUM_PACKAGE}, but no chromium binary was found`);
  return installed;
}

export interface HeadlessOptions {
  /** Extra flags, e.g. --dump-dom or --screenshot=<path>. */
  flags: string[];
  timeoutMs?: number;
}

/** One headless Chromium run on a throwaway profile; its stdout (the DOM, for --dump-dom). */
export async function headless(binary: string, url: string, options: HeadlessOptions): Promise<string> {
  const profile = await mkdtemp(join(tmpdir(), 'ledgersync-chromium-'));
  try {
    const { stdout } = await run(
      binary,
      [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        `--user-data-dir=${profile}`,
        ...options.flags,
        url,
      ],
      { timeout: options.timeoutMs ?? 60_000, maxBuffer: 32 * 1024 * 1024, killSignal: 'SIGKILL' },
    );
    return stdout;
  } finally {
    await rm(profile, { recursive: true, force: true });
  }
}
