import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { okValues } from '../../../src/platform/index.ts';
import { BIN, runCli } from '../../support/cli.ts';
import { type Arrival, PROVIDER, useMigrationWorld } from '../sync/connection-migration/support/world.ts';
import { chartDifferences } from '../sync/mirror/support/compare.ts';

const m = useMigrationWorld();

/** Starts `migrate prepare` and SIGKILLs it once the stub has seen `when` arrive. */
async function killWhen(
  env: Record<string, string>,
  when: (arrivals: Arrival[]) => boolean,
): Promise<string> {
  const mark = await m.arrivalMark();
  const args = [BIN, 'migrate', 'prepare', '--provider', PROVIDER, '--backup-dir', m.backupDir];
  const child = spawn(process.execPath, args, {
    env: { ...process.env, LOG_LEVEL: 'warn', NODE_ENV: 'test', ...env },
    stdio: ['ignore', 'ignore', 'ignore'],
  });
  const exited = new Promise<string>((resolve) =>
    child.once('exit', (code, signal) => resolve(signal ?? `exit ${code}`)),
  );
  const deadline = Date.now() + 45_000;
  try {
    while (child.exitCode === null && child.signalCode === null && Date.now() < deadline) {
      if (when(await m.arrivalsSince(mark))) {
        child.kill('SIGKILL');
        break;
      }
      await new Promise((r) => setTimeout(r, 10));
    }
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  return exited;
}

describe('`ledgersync migrate` through the real binary', () => {
  it('bad arguments: a clear message and exit 2', async () => {
    const env = m.cliEnv();
    const [missing, empty, unknown] = await Promise.all([
      runCli(['migrate', 'prepare'], env),
      runCli(['migrate', 'prepare', '--provider', '  '], env),
      runCli(['migrate', 'frobnicate'], env),
    ]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("required option '--provider <name>' not specified");
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('--provider must not be empty');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown command 'frobnicate'");
  });

  it('prepare, status, prepare again: steps, next steps, exit 0; then "nothing changed"', async () => {
    const source = await m.fresh();
    const env = m.cliEnv();
    const none = await runCli(['migrate', 'status'], env);
    expect(none.code).toBe(0);
    expect(none.stdout).toContain('No migration has been prepared');

    const prepared = await runCli(
      ['migrate', 'prepare', '--provider', PROVIDER, '--backup-dir', m.backupDir],
      env,
    );
    expect(prepared.code, prepared.stderr).toBe(0);
    for (const step of ['check', 'backup', 'create target', 'preload', 'verify', 'ready']) {
      expect(prepared.stdout).toContain(`✓ ${step}: `);
    }
    expect(prepared.stdout).toMatch(
      /is ready to migrate\.\nNext:\n {2}1\. The customer completes the switch/,
    );
    expect(prepared.stdout).toContain('Recreate automations');
    expect(prepared.stdout).toContain(m.backupDir);

    const status = await runCli(['migrate', 'status', '--json'], env);
    expect(status.code).toBe(0);
    const parsed = JSON.parse(status.stdout);
    expect(parsed.readiness).toBe('ready');
    expect(parsed.source).toMatchObject({ id: source, is_active: true });
    expect(parsed.target).toMatchObject({
      is_active: false,
      is_ready_to_migrate: true,
      connection_type: 'API',
    });
    expect(parsed.migration.counts.gl_accounts.platform).toBe(parsed.migration.counts.gl_accounts.erp);
    const text = await runCli(['migrate', 'status'], env);
    expect(text.stdout).toMatch(/Migration #1 to "New ERP \(API\)": ready \(ready\)/);
    expect(text.stdout).toMatch(
      /new connection: {5}\S+ \("New ERP \(API\)"\) inactive, API, unlinked, ready to migrate/,
    );

    const again = await runCli(['migrate', 'prepare', '--provider', PROVIDER, '--json'], env);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ outcome: 'unchanged', steps: [] });
  });

  it('a failed precondition: its message on stderr, exit 1; no platform configured: exit 78', async () => {
    await m.fresh();
    const other = await m.platform.connection.create({
      remote_provider_name: 'Someone else',
      is_active: false,
    });
    await m.platform.connection.markReadyToMigrate(other.id);
    const [blocked, unconfigured] = await Promise.all([
      runCli(['migrate', 'prepare', '--provider', PROVIDER, '--backup-dir', m.backupDir], m.cliEnv()),
      runCli(['migrate', 'status'], m.cliEnv({ PLATFORM_BASE_URL: '' })),
    ]);
    expect(blocked.code).toBe(1);
    expect(blocked.stderr).toContain(`Another migration is in progress: connection ${other.id}`);
    expect(blocked.stderr).toContain('What to do:');
    expect(blocked.stderr).not.toContain('ledgersync-stub-secret');
    expect(unconfigured.code).toBe(78);
    expect(unconfigured.stderr).toContain('PLATFORM_BASE_URL is not set');
  });

  it('kill -9 during the preload, then run again: one new connection, the ERP chart, ready', async () => {
    const source = await m.fresh();
    const env = m.cliEnv();
    const killed = await killWhen(env, (arrivals) => {
      const created = arrivals.findIndex((a) => a.method === 'POST' && a.route === '/accounting/connection');
      return (
        created >= 0 &&
        arrivals.slice(created).some((a) => a.method === 'POST' && a.route === '/accounting/fields')
      );
    });
    expect(killed).toBe('SIGKILL');

    const rerun = await runCli(
      ['migrate', 'prepare', '--provider', PROVIDER, '--backup-dir', m.backupDir],
      env,
    );
    expect(rerun.code, rerun.stderr).toBe(0);
    // Where the kill landed depends on timing; the re-run finishes from there.
    expect(rerun.stdout).toMatch(/Resuming migration #1 from state (target_created|preloaded|verified)\./);
    const mine = okValues(await m.platform.connection.all()).filter(
      (c) => c.remote_provider_name === PROVIDER,
    );
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ is_ready_to_migrate: true, is_active: false });
    expect(await chartDifferences(await m.chart(mine[0]!.id), m.world.erp)).toEqual([]);
    expect((await m.platform.connection.getActive())!.id).toBe(source);
  });
});
