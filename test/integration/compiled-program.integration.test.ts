import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestRedis } from '../support/redis.ts';
import { useSyncWorld, worldEnv } from '../support/sync-world.ts';

/**
 * The production image runs the compiled program (`node dist/src/cli.js`, built by
 * `npm run build`) without tsx or dev dependencies. No Docker engine is needed to check it:
 * build it here and run it as the image's entry point would.
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = `${ROOT}dist/src/cli.js`;
const world = useSyncWorld();
const redis = useTestRedis();

function runCompiled(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

beforeAll(() => {
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'ignore' });
}, 120_000);

describe('the compiled program (the production image entry point)', () => {
  it('is plain JavaScript that needs no TypeScript loader, and prints its version', async () => {
    expect(existsSync(CLI)).toBe(true);
    const result = await runCompiled(['--version'], {});
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('leaves the platform stub out: `stub` says so in one line and exits 69 (README "Exit codes")', async () => {
    expect(existsSync(`${ROOT}dist/packages`)).toBe(false);
    // Run inside the clone, the package is there but TypeScript, which plain node cannot load; in
    // the image it is not there at all. Both are the same one line.
    const result = await runCompiled(['stub', '--port', '0'], {});
    expect(result.code, result.stderr).toBe(69);
    expect(result.stderr).toMatch(
      /^ledgersync: the built-in platform stub is not part of this installation.*\n$/,
    );
    expect(result.stderr).not.toMatch(/^\s+at /m);
  });

  it('migrates its database and syncs every kind against the stub', async () => {
    await world.seed({
      seed: 71,
      transactions: 60,
      reimbursements: 10,
      transfers: 4,
      cashbacks: 4,
      bills: 12,
    });
    const result = await runCompiled(['sync', 'all', '--json'], {
      ...worldEnv(world, redis),
    });
    expect([0, 3], result.stderr).toContain(result.code);
    const [row] = await world.db.sql`select count(*)::int as n from sync_ledger where state = 'REPORTED'`;
    expect(row!.n).toBeGreaterThan(50);
  });
});
