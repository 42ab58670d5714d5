import { spawn } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres } from '../../src/infra/index.ts';
import { createLogger } from '../../src/log.ts';
import { BIN, runCli } from '../support/cli.ts';

/**
 * The embedded servers' state (`EMBEDDED_DATA_DIR`: lock files, server.json, the data folders)
 * after kills at any instant, through the real binary: the next command always works.
 */
let dataDir = '';

beforeAll(async () => {
  dataDir = join(await mkdtemp(join(tmpdir(), 'ledgersync-state-')), 'state');
  // The embedded PostgreSQL runs as the `postgres` user when we are root: it must reach the folder.
  await chmod(join(dataDir, '..'), 0o755);
  await mkdir(dataDir, { recursive: true });
});

afterAll(async () => {
  // The watchdogs stop the servers within seconds of the last user; then the folder can go.
  await new Promise((r) => setTimeout(r, 3_000));
  if (dataDir) await rm(join(dataDir, '..'), { recursive: true, force: true });
});

const env = () => ({
  DATABASE_URL: undefined,
  REDIS_URL: undefined,
  EMBEDDED_DATA_DIR: dataDir,
  DATABASE_SCHEMA: 'embedded_state',
  LEDGER_SCHEMA: 'embedded_state_ledger',
});
const migrate = () => runCli(['db', 'migrate'], env(), 60_000);

/** Small seeded generator (mulberry32): the same delays on every run. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Starts `db migrate` and kills it with SIGKILL after `delayMs` (or lets it end first). */
function killedAfter(delayMs: number): Promise<void> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, 'db', 'migrate'], {
      env: { ...process.env, ...env(), DATABASE_URL: '', REDIS_URL: '', LOG_LEVEL: 'warn' },
      stdio: 'ignore',
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), delayMs);
    child.on('exit', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

async function aged(path: string, content: string): Promise<void> {
  await writeFile(path, content);
  const then = new Date(Date.now() - 10_000);
  await utimes(path, then, then);
}

describe('embedded servers survive a kill at any instant', () => {
  it('kill -9 during start-up, 20 times at seeded random instants: a command after them works', async () => {
    const random = seeded(20_261_125);
    for (let i = 1; i <= 20; i++) {
      // The first kills land in the first start (initdb), the later ones in warm starts; each
      // killed command is itself the next command of the one before. A complete command runs
      // after every fourth kill (each takes seconds: checking after every kill would take minutes).
      await killedAfter(Math.floor(random() * 2_500));
      if (i % 4 !== 0) continue;
      const next = await migrate();
      expect(next.code, `after kill ${i}: ${next.stderr.slice(-1500)}`).toBe(0);
    }
  }, 240_000);

  it('lock files left empty, or naming a dead process, and a garbage server.json: the command proceeds', async () => {
    await aged(join(dataDir, 'pg.lock'), '');
    await aged(join(dataDir, 'redis.lock'), '2147483646');
    await mkdir(join(dataDir, 'redis'), { recursive: true });
    await writeFile(join(dataDir, 'redis', 'server.json'), '{"port":');
    const result = await migrate();
    expect(result.code, result.stderr.slice(-1500)).toBe(0);
  }, 120_000);

  it('a server.json naming a dead keeper, or empty: the command starts its own server', async () => {
    await writeFile(join(dataDir, 'redis', 'server.json'), JSON.stringify({ port: 1, keeper: 2147483646 }));
    expect((await migrate()).code).toBe(0);
    await writeFile(join(dataDir, 'redis', 'server.json'), '');
    expect((await migrate()).code).toBe(0);
  }, 120_000);

  it('the cluster it made compares text by code point, through the builtin C.UTF-8 locale', async () => {
    const server = await startEmbeddedPostgres(join(dataDir, 'pg'), createLogger({ level: 'silent' }));
    const sql = postgres(server.url, { max: 1, onnotice: () => {} });
    try {
      const [database] = await sql<{ provider: string; locale: string | null }[]>`
        select datlocprovider as provider, datlocale as locale from pg_database where datname = current_database()`;
      expect(database).toEqual({ provider: 'b', locale: 'C.UTF-8' });
      // The order glibc's C.UTF-8 gave before: capitals first, then accented letters after z.
      const [sorted] = await sql<{ words: string[] }[]>`
        select array_agg(w order by w) as words from unnest(array['b', 'é', 'B', 'a', 'Z']) as w`;
      expect(sorted?.words).toEqual(['B', 'Z', 'a', 'b', 'é']);
      const [upper] = await sql<{ word: string }[]>`select upper('é') as word`;
      expect(upper?.word).toBe('É');
    } finally {
      await sql.end({ timeout: 5 });
      await server.stop();
    }
  }, 120_000);
});
