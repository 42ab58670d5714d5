import { describe, expect, it } from 'vitest';
import { runCli, STACK_FRAME, terminalLines } from '../../support/cli.ts';
import { useTestDatabase } from '../../support/db.ts';
import { useTestRedis } from '../../support/redis.ts';

/**
 * A platform nobody answers for (README "Exit codes", 69): the command checks the platform's host
 * before any work, as it checks Redis, and stops within seconds with one line naming the host,
 * no stack. It used to retry for about 20 s, then exit 1 with the client's stack in the log.
 */
const db = useTestDatabase();
const redis = useTestRedis();

function env(baseUrl: string): Record<string, string> {
  return {
    DATABASE_URL: db.url,
    DATABASE_SCHEMA: db.schema,
    LEDGER_SCHEMA: db.newSchema('ledger'),
    REDIS_URL: redis.url,
    QUEUE_PREFIX: redis.prefix,
    PLATFORM_BASE_URL: baseUrl,
    PLATFORM_CLIENT_ID: 'client',
    PLATFORM_CLIENT_SECRET: 'secret',
    LOG_LEVEL: 'info',
  };
}

describe('an unreachable platform', () => {
  it.each([
    [
      'nothing listens on the port',
      'http://127.0.0.1:1/developer/v1',
      /127\.0\.0\.1:1 is unreachable \(connection refused\)/,
    ],
    [
      'the host does not resolve',
      'https://platform.invalid/developer/v1',
      /platform\.invalid:443 is unreachable \((host not found|host name lookup failed)\)/,
    ],
  ])(
    '(%s) `sync transactions` exits 69 within seconds with one line naming the host',
    async (_name, url, reason) => {
      const started = Date.now();
      const result = await runCli(['sync', 'transactions'], env(url), 60_000);
      const ms = Date.now() - started;
      expect(result.code, result.stderr.slice(-2000)).toBe(69);
      expect(ms).toBeLessThan(15_000);
      expect(result.stdout).toBe('');
      const lines = terminalLines(result.stderr);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^ledgersync: the platform at /);
      expect(lines[0]).toMatch(reason);
      expect(result.stderr).not.toMatch(STACK_FRAME);
      expect(result.stderr).not.toContain('secret');
      console.info(`sync transactions against ${url}: exit ${result.code} after ${ms} ms`);
    },
    60_000,
  );
});
