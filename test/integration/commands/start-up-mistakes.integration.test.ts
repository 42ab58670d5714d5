import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, STACK_FRAME, terminalLines } from '../../support/cli.ts';
import { useTestRedis } from '../../support/redis.ts';
import { useSyncWorld, worldEnv } from '../../support/sync-world.ts';

/**
 * The mistakes of an operator's first hour, through the real binary against a real stub, the test
 * PostgreSQL and a port held by this test (README "Exit codes"): each exits 78 with one line
 * naming the variable, no stack and no secret. Each used to exit 1 with the error's JSON and stack.
 */
const world = useSyncWorld();
const redis = useTestRedis();
/** Exit 78 and one line for the operator: no error's JSON, no warning unless `logLevel` allows it. */
function expectOneLine(
  result: { code: number | null; stdout: string; stderr: string },
  logLevel = 40,
): string {
  expect(result.code, result.stderr.slice(-2000)).toBe(78);
  const lines = terminalLines(result.stderr, logLevel);
  expect(lines, result.stderr.slice(-2000)).toHaveLength(1);
  expect(lines[0]).toMatch(/^ledgersync: /);
  expect(result.stdout + result.stderr).not.toMatch(STACK_FRAME);
  return lines[0]!;
}

describe('configuration mistakes exit 78 with one line naming the variable', () => {
  it('docs/platform.md G32: a PLATFORM_BASE_URL without /developer/v1 names PLATFORM_BASE_URL and the URL it should be', async () => {
    const env = { ...worldEnv(world, redis), PLATFORM_BASE_URL: world.stub.url };
    const line = expectOneLine(await runCli(['sync', 'transactions'], env, 60_000));
    expect(line).toBe(
      `ledgersync: PLATFORM_BASE_URL must end in /developer/v1 (got path /): it is the platform's API base, for example ${world.stub.apiUrl}.`,
    );
  });

  it('docs/platform.md G5: a wrong PLATFORM_CLIENT_SECRET (the token call answers 401) names both variables, never the secret', async () => {
    const secret = 'wrong-secret-6f1e9a';
    const env = { ...worldEnv(world, redis), PLATFORM_CLIENT_SECRET: secret };
    const result = await runCli(['sync', 'transactions'], env, 60_000);
    const line = expectOneLine(result);
    expect(line).toMatch(/^ledgersync: the platform at 127\.0\.0\.1:\d+ refused the client credentials/);
    expect(line).toContain('PLATFORM_CLIENT_ID and PLATFORM_CLIENT_SECRET');
    expect(result.stdout + result.stderr).not.toContain(secret);
  });

  it('a DATABASE_URL naming a database that does not exist (3D000) names it and DATABASE_URL without the password, says createdb', async () => {
    const url = new URL(world.db.url);
    url.pathname = '/ledgersync_no_such_db';
    const result = await runCli(
      ['status'],
      { ...worldEnv(world, redis), DATABASE_URL: url.toString() },
      60_000,
    );
    const line = expectOneLine(result);
    const where = `${url.hostname}:${url.port}`;
    const shown = `postgres://${url.username}@${where}/ledgersync_no_such_db`;
    expect(line).toBe(
      `ledgersync: the database "ledgersync_no_such_db" in DATABASE_URL (${shown}) does not exist on PostgreSQL at ${where}: ` +
        `create it (\`createdb -h ${url.hostname} -p ${url.port} -U ${url.username} ledgersync_no_such_db\`) or set DATABASE_URL to a database that exists.`,
    );
  });

  it('a DATABASE_URL whose password the server refuses (28P01) names the user and DATABASE_URL, never the password', async () => {
    const url = new URL(world.db.url);
    url.password = 'wrong-pg-password-3c7d';
    const result = await runCli(
      ['status'],
      { ...worldEnv(world, redis), DATABASE_URL: url.toString() },
      60_000,
    );
    const line = expectOneLine(result);
    expect(line).toContain(
      `PostgreSQL at ${url.hostname}:${url.port} refused the user "${url.username}" of DATABASE_URL`,
    );
    expect(line).toContain('password authentication failed');
    expect(result.stdout + result.stderr).not.toContain('wrong-pg-password-3c7d');
  });

  describe('a SERVER_PORT another process holds', () => {
    let holder: Server;
    let port: number;
    beforeAll(async () => {
      holder = createServer();
      await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
      port = (holder.address() as { port: number }).port;
    });
    afterAll(() => new Promise<void>((resolve) => holder.close(() => resolve())));

    it('`worker` exits 78 with one line naming SERVER_PORT and the port', async () => {
      const env = {
        ...worldEnv(world, redis),
        PLATFORM_CONNECTION_ID: world.connectionId,
        SERVER_HOST: '127.0.0.1',
        SERVER_PORT: String(port),
      };
      const result = await runCli(['worker', '--no-schedules', '--no-workers'], env, 60_000);
      // `worker` warns first about the parts it runs without: only an error's JSON would count.
      const line = expectOneLine(result, 50);
      expect(line).toContain(`SERVER_PORT ${port} is in use on 127.0.0.1`);
    });
  });
});
