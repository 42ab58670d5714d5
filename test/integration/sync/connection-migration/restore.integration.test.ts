import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PlatformClient } from '../../../../src/platform/index.ts';
import {
  RestoreInputError,
  type RestoreResult,
  readBackupFile,
  restoreChart,
} from '../../../../src/sync/connection-migration/index.ts';
import type { PlatformChart } from '../../../../src/sync/connection-migration/platform-chart.ts';
import { runCli } from '../../../support/cli.ts';
import type { StubChart } from '../mirror/support/compare.ts';
import { crashingPlatform, SimulatedCrash } from '../mirror/support/crashing-platform.ts';
import { useMigrationWorld, writesOf } from './support/world.ts';

const m = useMigrationWorld();

const deps = (platform: PlatformClient = m.platform) => ({
  sql: m.world.db.sql,
  platform,
  log: m.deps().log,
});

/**
 * The connection holds what the backup holds: every backed-up active item once, active, with its
 * name, code and visibility (docs/platform.md G17: hidden stays hidden); every inactive one absent
 * or inactive. Returns the differences.
 */
function differencesFromBackup(chart: StubChart, backup: PlatformChart): string[] {
  const problems: string[] = [];
  const code = (value: unknown) => (value ?? '') as string;
  const compare = (
    what: string,
    platform: ReadonlyArray<{ id: string; is_active: boolean } & Record<string, unknown>>,
    backedUp: ReadonlyArray<{ id: string; is_active: boolean } & Record<string, unknown>>,
    content: (item: Record<string, unknown>) => unknown,
  ) => {
    const byId = new Map<string, (typeof platform)[number]>();
    for (const item of platform) {
      if (byId.has(item.id)) problems.push(`${what} ${item.id}: twice`);
      byId.set(item.id, item);
    }
    for (const item of backedUp) {
      const found = byId.get(item.id);
      if (!item.is_active) {
        if (found?.is_active) problems.push(`${what} ${item.id}: active, backed up inactive`);
        continue;
      }
      if (!found?.is_active) problems.push(`${what} ${item.id}: missing or inactive`);
      else if (JSON.stringify(content(found)) !== JSON.stringify(content(item))) {
        problems.push(
          `${what} ${item.id}: ${JSON.stringify(content(found))} ≠ ${JSON.stringify(content(item))}`,
        );
      }
    }
  };
  const named = (i: Record<string, unknown>) => ({ name: i.name, code: code(i.code) });
  const visible = (i: Record<string, unknown>) => ({ ...named(i), visibility: i.visibility });
  compare('gl account', chart.gl_accounts, backup.gl_accounts, visible);
  compare('field', chart.fields, backup.fields, (i) => ({ name: i.name }));
  for (const field of backup.fields.filter((f) => f.is_active)) {
    const options = chart.fields.find((f) => f.id === field.id)?.options ?? [];
    compare(`option of ${field.id}`, options, field.options, (i) => ({
      value: i.value,
      code: code(i.code),
      visibility: i.visibility,
    }));
  }
  compare('vendor', chart.vendors, backup.vendors, named);
  compare('tax rate', chart.tax_rates, backup.tax_rates, (i) => ({ name: i.name, rate: i.rate }));
  compare('tax code option', chart.tax_code_options, backup.tax_code_options, (i) => ({
    name: i.name,
    rates: [...(i.tax_rate_ids as string[])].sort(),
  }));
  return problems;
}

/** A prepared migration's backup of the active connection, and that connection. */
async function backedUp(): Promise<{
  source: string;
  migrationId: string;
  file: string;
  chart: PlatformChart;
}> {
  const source = await m.fresh();
  const prepared = await m.prepare();
  expect(prepared.outcome, JSON.stringify(prepared.blocker)).toBe('ready');
  const { backup } = await readBackupFile(prepared.backupFile!);
  return { source, migrationId: prepared.migrationId!, file: prepared.backupFile!, chart: backup.chart };
}

async function newInactiveConnection(): Promise<string> {
  const created = await m.platform.connection.create({
    remote_provider_name: 'Restored ERP',
    is_active: false,
  });
  return created.id;
}

function expectAllCreated(result: RestoreResult): void {
  expect(result.outcome, JSON.stringify({ failures: result.failures, skipped: result.skipped })).toBe(
    'restored',
  );
  expect(result.kinds.gl_account!.created).toBeGreaterThan(100);
}

describe('migrate restore: a backed-up chart uploaded again (docs/platform.md G30, F12)', () => {
  it('from the copy in PostgreSQL onto a new inactive connection: the backed-up chart, item for item; a second run writes nothing', async () => {
    const { migrationId, chart } = await backedUp();
    const target = await newInactiveConnection();

    const result = await restoreChart(deps(), { connectionId: target, from: { migrationId } });

    expectAllCreated(result);
    expect(result.backup.origin).toBe('database');
    expect(result.found).toMatchObject({ gl_account: 0, vendor: 0 });
    expect(differencesFromBackup(await m.chart(target), chart)).toEqual([]);
    // Hidden items were restored hidden.
    const hidden = chart.gl_accounts.filter((a) => a.is_active && a.visibility === 'HIDDEN').length;
    expect(result.kinds.gl_account!.hidden).toBe(hidden);

    const mark = await m.arrivalMark();
    const again = await restoreChart(deps(), { connectionId: target, from: { migrationId } });
    expect(again.outcome).toBe('restored');
    expect(again.writeCalls).toBe(0);
    expect(writesOf(await m.arrivalsSince(mark))).toEqual([]);
  });

  it('from the JSON file onto the active connection after its chart was lost (unlinked and linked again): stale id maps are dropped, everything is uploaded again', async () => {
    const { source, file, chart } = await backedUp();
    await m.platform.connection.unlink();
    await m.platform.request({
      method: 'POST',
      path: `/accounting/connection/${source}/reactivate`,
      body: {},
    });
    expect((await m.chart(source)).gl_accounts).toEqual([]);

    const result = await restoreChart(deps(), { connectionId: source, from: { file } });

    expectAllCreated(result);
    expect(result.backup).toMatchObject({ origin: 'file', file, connectionId: source });
    expect(differencesFromBackup(await m.chart(source), chart)).toEqual([]);
    const [stale] = await m.world.db.sql<{ n: number }[]>`
      select count(*)::int as n from id_map m where connection_id = ${source} and svc_id is not null`;
    const onPlatform = await m.chart(source);
    const items =
      onPlatform.gl_accounts.length +
      onPlatform.fields.length +
      onPlatform.fields.reduce((n, f) => n + f.options.length, 0) +
      onPlatform.vendors.length +
      onPlatform.tax_rates.length +
      onPlatform.tax_code_options.length +
      (onPlatform.tax_code ? 1 : 0);
    expect(stale!.n).toBe(items);
  });

  it('killed in the middle of the upload and run again: what the first run uploaded is found, nothing twice', async () => {
    const { migrationId, chart } = await backedUp();
    const target = await newInactiveConnection();
    const crashing = crashingPlatform(m.platform, 3, 'after');
    const platform = new Proxy(m.platform, {
      get: (t, property, receiver) =>
        property === 'chart' ? crashing.chart : Reflect.get(t, property, receiver),
    }) as PlatformClient;
    await expect(
      restoreChart(deps(platform), { connectionId: target, from: { migrationId } }),
    ).rejects.toBeInstanceOf(SimulatedCrash);

    const result = await restoreChart(deps(), { connectionId: target, from: { migrationId } });

    expect(result.outcome).toBe('restored');
    const first = result.found!;
    expect((first.gl_account ?? 0) + (first.field ?? 0)).toBeGreaterThan(0);
    expect(differencesFromBackup(await m.chart(target), chart)).toEqual([]);
  });

  it('refuses what it cannot use, naming it: a missing or foreign file, an unknown backup, the new connection of an open migration', async () => {
    const { migrationId, source } = await backedUp();
    const target = await newInactiveConnection();
    const foreign = join(m.backupDir, 'not-a-backup.json');
    await writeFile(foreign, '{"hello": "world"}');
    const refused = (from: Parameters<typeof restoreChart>[1]['from'], connectionId = target) =>
      restoreChart(deps(), { connectionId, from }).then(
        () => 'accepted',
        (error: unknown) => (error instanceof RestoreInputError ? error.message : `unexpected: ${error}`),
      );
    expect(await refused({ file: join(m.backupDir, 'missing.json') })).toMatch(/no such file/);
    expect(await refused({ file: foreign })).toMatch(/not a ledgersync chart backup/);
    expect(await refused({ migrationId: '99' })).toMatch(/Migration #99 has no chart backup/);
    expect(await refused({ migrationId: 'latest' })).toMatch(/takes a migration number/);
    expect(await refused({ migrationId }, 'no-such-connection')).toMatch(/is not on the platform/);
    const [open] = await m.world.db.sql<
      { target: string }[]
    >`select target_connection_id as target from connection_migrations`;
    expect(await refused({ migrationId }, open!.target)).toMatch(/migrate abandon/);
    expect((await m.chart(target)).gl_accounts).toEqual([]);
    expect(source).not.toBe(target);
  });

  it('through the real binary: exit 2 without a source, 1 for an unknown backup, 0 and a summary when restored', async () => {
    const { migrationId } = await backedUp();
    const target = await newInactiveConnection();
    const env = m.cliEnv();
    const [none, both, unknown] = await Promise.all([
      runCli(['migrate', 'restore', '--connection', target], env),
      runCli(
        ['migrate', 'restore', '--from-file', 'x.json', '--from-backup', '1', '--connection', target],
        env,
      ),
      runCli(['migrate', 'restore', '--from-backup', '99', '--connection', target], env),
    ]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('one of --from-file <path> or --from-backup <migration-id> is required');
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('cannot be used with option');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('Migration #99 has no chart backup');

    const restored = await runCli(
      ['migrate', 'restore', '--from-backup', migrationId, '--connection', target],
      env,
    );
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stdout).toMatch(
      new RegExp(`^Restored: the chart backed up from connection \\S+ on .* onto connection ${target}`, 'm'),
    );
    expect(restored.stdout).toMatch(/gl account: \d+ created/);
    const json = await runCli(
      ['migrate', 'restore', '--from-backup', migrationId, '--connection', target, '--json'],
      env,
    );
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({
      outcome: 'restored',
      writeCalls: 0,
      connectionId: target,
    });
  });
});
