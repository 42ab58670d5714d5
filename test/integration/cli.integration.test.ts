import { mkdtemp, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { runCli } from '../support/cli.ts';
import { uniqueName } from '../support/unique.ts';

const databaseUrl = inject('databaseUrl');
const redisUrl = inject('redisUrl');

describe('ledgersync binary', () => {
  it('a broken environment prints one message naming the variable and exits 78, no stack trace', async () => {
    const result = await runCli([], { REDIS_URL: 'notaurl', DATABASE_URL: 'also-bad' });
    expect(result.code).toBe(78);
    expect(result.stderr).toContain('REDIS_URL');
    expect(result.stderr).toContain('DATABASE_URL');
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result.stderr.trim().split('\n')[0]).toBe('ledgersync: Invalid configuration:');
  });

  it('an unknown command is a usage error (exit 2)', async () => {
    const result = await runCli(['frobnicate'], { DATABASE_URL: databaseUrl, REDIS_URL: redisUrl });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("unknown command 'frobnicate'");
  });

  it('no command at all is a usage error: the usage on stderr, nothing on stdout, exit 2', async () => {
    const result = await runCli([], { DATABASE_URL: databaseUrl, REDIS_URL: redisUrl });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Usage: ledgersync');
    expect(result.stdout).toBe('');
    const asked = await runCli(['--help'], { DATABASE_URL: databaseUrl, REDIS_URL: redisUrl });
    expect(asked.code, 'help asked for is not a failure').toBe(0);
  });

  it('two concurrent `db migrate` both exit 0 and the schema is applied once', async () => {
    const env = { DATABASE_URL: databaseUrl, REDIS_URL: redisUrl, DATABASE_SCHEMA: uniqueName('cli') };
    const [a, b] = await Promise.all([
      runCli(['db', 'migrate', '--json'], env),
      runCli(['db', 'migrate', '--json'], env),
    ]);
    expect([a.code, b.code]).toEqual([0, 0]);
    const applied = [a, b].map((r) => JSON.parse(r.stdout).applied as string[]);
    expect(applied.flat().filter((n) => n === '0001_init.sql')).toHaveLength(1);
    const again = await runCli(['db', 'migrate', '--json'], env);
    expect(JSON.parse(again.stdout).applied).toEqual([]);
  });

  it('without REDIS_URL and without redis-server on PATH, says exactly how to install it (exit 69)', async () => {
    // A PATH holding only node: redis-server sits beside node in /usr/bin on some machines.
    const onlyNode = await mkdtemp(join(tmpdir(), 'ls-path-'));
    await symlink(process.execPath, join(onlyNode, 'node'));
    const result = await runCli(['demo'], {
      DATABASE_URL: databaseUrl,
      REDIS_URL: undefined,
      PATH: onlyNode,
    });
    expect(result.code).toBe(69);
    expect(result.stderr).toContain('apt-get install -y redis-server');
    expect(result.stderr).toContain('REDIS_URL');
    expect(result.stderr).toContain('docker compose up');
  });
});
