import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startCliProcess } from '../integration/worker-process.ts';
import { runCli } from '../support/cli.ts';
import { useTestDatabase } from '../support/db.ts';
import { useTestRedis } from '../support/redis.ts';

/**
 * README "Run it against the stub yourself", command by command, with real processes in a fresh
 * folder: `try` in the foreground, then `sync all`, `status` and `worker` from the same folder,
 * which reach the stub only through the `.env` that `try` wrote. For speed the commands share
 * the suite's PostgreSQL and Redis (in schemas and a prefix of their own) instead of starting
 * embedded ones in the folder; nothing sets a PLATFORM_* variable but `.env`.
 */
const db = useTestDatabase();
const redis = useTestRedis();
const ledgerSchema = db.newSchema('ledger'); // dropped with the file's schema
const dir = mkdtempSync(join(tmpdir(), 'ledgersync-try-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const env = () => ({
  DATABASE_URL: db.url,
  REDIS_URL: redis.url,
  DATABASE_SCHEMA: db.schema,
  LEDGER_SCHEMA: ledgerSchema,
  QUEUE_PREFIX: redis.prefix,
  SERVER_PORT: '0',
});
const unsetPlatform = {
  PLATFORM_BASE_URL: undefined,
  PLATFORM_CLIENT_ID: undefined,
  PLATFORM_CLIENT_SECRET: undefined,
};
const cli = (args: string[], extra: Record<string, string | undefined> = {}, cwd = dir) =>
  runCli(args, { ...env(), ...unsetPlatform, ...extra }, 90_000, cwd);

describe('README "Run it against the stub yourself"', () => {
  it('try, then sync all, status and worker from the same folder exit as the README says', async () => {
    const stub = startCliProcess(['try', '--port', '0'], env(), dir);
    try {
      await stub.waitForLine(/The stub keeps this world until you stop it/, 90_000);
      const written = readFileSync(join(dir, '.env'), 'utf8');
      expect(written).toMatch(/^PLATFORM_BASE_URL=http:\/\/127\.0\.0\.1:\d+\/developer\/v1$/m);
      expect(written).toContain('PLATFORM_CLIENT_ID=ledgersync-stub-client');

      const sync = await cli(['sync', 'all']);
      expect(sync.code, sync.stderr).toBe(3);
      expect(sync.stdout).toMatch(/transactions: \d+ read, [1-9]\d* posted/);

      // No worker runs yet: the health banner says PROBLEM, and status exits 3 (README "Exit codes").
      const status = await cli(['status']);
      expect(status.code, status.stderr).toBe(3);
      expect(status.stdout).toContain('PROBLEM');
      expect(status.stdout).toMatch(/transactions\s+[1-9]\d*\s/);

      const worker = startCliProcess(['worker'], env(), dir);
      await worker.waitForLine(/ledgersync worker running/);
      expect(await worker.stop('SIGINT')).toBe(0);
    } finally {
      expect(await stub.stop('SIGINT')).toBe(0);
    }
  });

  it('without the .env the same command says the platform is not configured (exit 78)', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'ledgersync-noenv-'));
    try {
      const result = await cli(['sync', 'all'], {}, empty);
      expect(result.code).toBe(78);
      expect(result.stderr).toContain('PLATFORM_BASE_URL is not set');
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('the shell wins over .env, and a .env line it cannot read stops every command with exit 78 naming file and line', async () => {
    const other = mkdtempSync(join(tmpdir(), 'ledgersync-env-'));
    try {
      writeFileSync(join(other, '.env'), 'LOG_LEVEL=chatty\n');
      const fromFile = await cli(['db', 'migrate'], { LOG_LEVEL: undefined }, other);
      expect(fromFile.code).toBe(78);
      expect(fromFile.stderr).toContain('LOG_LEVEL');
      const shellWins = await cli(['db', 'migrate'], { LOG_LEVEL: 'warn' }, other);
      expect(shellWins.code, shellWins.stderr).toBe(0);

      writeFileSync(join(other, '.env'), '# settings\nPLATFORM_CLIENT_SECRET "hunter22"\n');
      const broken = await cli(['db', 'migrate'], {}, other);
      expect(broken.code).toBe(78);
      expect(broken.stderr).toContain(`${join(other, '.env')} line 2: is not KEY=VALUE`);
      expect(broken.stderr).not.toContain('hunter22');
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});
