import { randomBytes } from 'node:crypto';
import { DEFAULT_CLIENT } from '@ledgersync/stub';
import { Redis } from 'ioredis';
import { beforeAll, describe, expect, it } from 'vitest';
import { useOwnRedis } from '../../chaos/redis-server.ts';
import { runCli } from '../../support/cli.ts';
import { useSyncWorld } from '../../support/sync-world.ts';
import { waitFor } from '../support.ts';
import { startWorkerProcess } from '../worker-process.ts';

/**
 * The real binary against a Redis it cannot use (README "Exit codes"):
 *
 * - nothing listens on the port: `sync all` and `status` used to wait for ever, printing
 *   ioredis's "[ioredis] Unhandled error event" stack on every reconnect attempt. Now they exit
 *   69 within seconds with one line naming the host and the cause;
 * - the user name or password is wrong: ioredis's errors carry the failed command with its
 *   arguments (`HELLO 3 AUTH user password`), and the password reached the log. Now the command
 *   exits 78 (the configuration is wrong) with one line, and no output of the command or of a
 *   worker, at any log level, contains the password: neither a worker started with it nor one
 *   whose Redis changed its password under it (every connection then retries with the old one).
 */
const world = useSyncWorld();
const db = world.db;
const redis = useOwnRedis({ extraArgs: ['--requirepass', `right_${randomBytes(8).toString('hex')}`] });
/** Distinctive, so a match can only be a leak. */
const PASSWORD = `Pw${randomBytes(12).toString('hex')}Leak`;
const rotating = useOwnRedis({ extraArgs: ['--requirepass', PASSWORD] });
const STACK = /\n\s+at .+:\d+:\d+|\[ioredis\]/;

beforeAll(async () => {
  await redis.start();
  await rotating.start();
});

function env(redisUrl: string, logLevel = 'info'): Record<string, string> {
  return {
    DATABASE_URL: db.url,
    DATABASE_SCHEMA: db.schema,
    LEDGER_SCHEMA: `${db.schema}_ledger`,
    REDIS_URL: redisUrl,
    LOG_LEVEL: logLevel,
    // Never reached: Redis is checked before the platform is called.
    PLATFORM_BASE_URL: 'http://127.0.0.1:9/developer/v1',
    PLATFORM_CLIENT_ID: 'client',
    PLATFORM_CLIENT_SECRET: 'secret',
  };
}

async function timed(args: string[], environment: Record<string, string>) {
  const started = Date.now();
  const result = await runCli(args, environment, 60_000);
  return { ...result, ms: Date.now() - started };
}

/** stderr without the log lines below warn (a first command logs the migrations it applied). */
function terminal(stderr: string): string[] {
  return stderr
    .trim()
    .split('\n')
    .filter((line) => {
      if (!line.startsWith('{')) return true;
      return (JSON.parse(line) as { level: number }).level >= 40;
    });
}

describe('a command whose Redis is down', () => {
  it.each([[['sync', 'all']], [['status']]])(
    '%j exits 69 within seconds with one line naming the host and the cause',
    async (args) => {
      const result = await timed(args, env('redis://127.0.0.1:1'));
      expect(result.code, result.stderr.slice(-2000)).toBe(69);
      expect(result.ms).toBeLessThan(15_000);
      expect(result.stdout).toBe('');
      expect(terminal(result.stderr)).toEqual([
        expect.stringMatching(
          /^ledgersync: Redis at 127\.0\.0\.1:1 is unavailable \(connect ECONNREFUSED 127\.0\.0\.1:1\)/,
        ),
      ]);
      expect(result.stderr).not.toMatch(STACK);
      console.info(`${args.join(' ')} with Redis down: exit ${result.code} after ${result.ms} ms`);
    },
  );
});

describe('a wrong Redis user or password', () => {
  it.each([
    ['user and password', (port: number) => `redis://ledger:${PASSWORD}@127.0.0.1:${port}`],
    ['password only', (port: number) => `redis://:${PASSWORD}@127.0.0.1:${port}`],
  ])(
    '(%s) a command exits 78 with one line, and the password is nowhere in its output',
    async (_name, url) => {
      const quiet = await timed(['sync', 'all'], env(url(redis.port)));
      expect(quiet.code, quiet.stderr.slice(-2000)).toBe(78);
      expect(quiet.ms).toBeLessThan(15_000);
      expect(terminal(quiet.stderr)).toEqual([
        `ledgersync: Redis at 127.0.0.1:${redis.port} refused the user name or password in REDIS_URL (WRONGPASS invalid username-password pair or user is disabled.).`,
      ]);
      // At debug level the log carries every refused attempt, with ioredis's command: scrubbed.
      const loud = await timed(['status'], env(url(redis.port), 'debug'));
      expect(loud.code).toBe(78);
      expect(loud.stderr).toMatch(/"args":\["\[redacted\]"\]/);
      for (const text of [quiet.stdout, quiet.stderr, loud.stdout, loud.stderr]) {
        expect(text).not.toContain(PASSWORD);
      }
    },
  );

  it('a worker stops with 78 and one line, never printing the password, at debug level too', async () => {
    const worker = startWorkerProcess(['--no-server', '--no-schedules'], {
      ...env(`redis://ledger:${PASSWORD}@127.0.0.1:${redis.port}`, 'debug'),
      QUEUE_PREFIX: 'lsauth',
    });
    const code = await new Promise<number | null>((resolve) => {
      if (worker.child.exitCode !== null) resolve(worker.child.exitCode);
      worker.child.once('exit', resolve);
      setTimeout(() => resolve(null), 45_000);
    });
    await worker.stop('SIGKILL');
    const output = worker.output();
    expect(code, output.slice(-3000)).toBe(78);
    expect(output).not.toContain(PASSWORD);
    expect(output).toContain(
      `ledgersync: Redis at 127.0.0.1:${redis.port} refused the user name or password in REDIS_URL`,
    );
    expect(output.match(/"msg":"Redis refused the user name or password in REDIS_URL"/g)).toHaveLength(1);
    expect(output).not.toMatch(/\[ioredis\]/);
  }, 60_000);

  it('a running worker whose Redis changes its password logs it once, never the password, and carries on once it is back', async () => {
    const worker = startWorkerProcess(['--no-server', '--no-schedules'], {
      ...env(`redis://:${PASSWORD}@127.0.0.1:${rotating.port}`, 'debug'),
      LEDGER_SCHEMA: world.ledgerSchema,
      QUEUE_PREFIX: 'lsrotate',
      PLATFORM_BASE_URL: world.stub.apiUrl,
      PLATFORM_CLIENT_ID: DEFAULT_CLIENT.client_id,
      PLATFORM_CLIENT_SECRET: DEFAULT_CLIENT.client_secret,
      PLATFORM_CONNECTION_ID: world.connectionId,
    });
    const admin = new Redis(rotating.url, { password: PASSWORD, lazyConnect: true });
    admin.on('error', () => undefined);
    try {
      await worker.waitForLine(/ledgersync worker running/);
      await admin.connect();
      // The password changes and every client is dropped: each reconnects with the old one.
      await admin.config('SET', 'requirepass', `new_${randomBytes(8).toString('hex')}`);
      await admin.call('CLIENT', 'KILL', 'TYPE', 'normal', 'SKIPME', 'yes');
      await worker.waitForLine(/Redis refused the user name or password in REDIS_URL/, 20_000);
      await waitFor(() => (worker.output().match(/"msg":"Redis connection error"/g) ?? []).length > 5, {
        what: 'several refused reconnect attempts',
      });
      await admin.config('SET', 'requirepass', PASSWORD);
      await worker.waitForLine(/Redis is reachable again/, 20_000);
      expect(worker.child.exitCode).toBeNull();
    } finally {
      admin.disconnect();
      await worker.stop('SIGTERM');
    }
    const output = worker.output();
    expect(output).not.toContain(PASSWORD);
    // ioredis's failed HELLO 3 AUTH <user> <password> is logged, its arguments scrubbed.
    expect(output).toMatch(/"command":\{"name":"hello","args":\["\[redacted\]"\]\}/);
    expect(output.match(/"msg":"Redis refused the user name or password in REDIS_URL"/g)).toHaveLength(1);
    expect(output).not.toMatch(/\[ioredis\]/);
  }, 60_000);
});
