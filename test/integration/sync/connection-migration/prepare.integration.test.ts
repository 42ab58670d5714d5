import { describe, expect, it } from 'vitest';
import {
  abandonOpenMigration,
  migrationStatus,
  readBackupFile,
} from '../../../../src/sync/connection-migration/index.ts';
import { readPlatformChart } from '../../../../src/sync/connection-migration/platform-chart.ts';
import { chartDifferences } from '../mirror/support/compare.ts';
import { PROVIDER, useMigrationWorld, writesOf } from './support/world.ts';

const m = useMigrationWorld();

describe('migrate prepare against the stub (docs/platform.md G31, G30, F6, F7)', () => {
  it('ends with an inactive API connection holding exactly the ERP chart, ready to migrate, the active one untouched', async () => {
    const source = await m.fresh({ vendor_credits_enabled: true, transaction_sync_button_enabled: true });
    const activeBefore = await m.chart(source);

    const result = await m.prepare();

    expect(result.outcome, JSON.stringify(result.blocker)).toBe('ready');
    expect(result.steps.map((s) => s.step)).toEqual([
      'check',
      'backup',
      'create_target',
      'preload',
      'verify',
      'ready',
    ]);
    const target = await m.platform.connection.get(result.targetConnectionId!);
    expect(target).toMatchObject({
      is_active: false,
      is_ready_to_migrate: true,
      connection_type: 'API',
      status: 'unlinked',
      remote_provider_name: PROVIDER,
    });
    // The customer's settings carry over, vendor credits included (docs/platform.md G30).
    expect(target!.settings).toMatchObject({
      vendor_credits_enabled: true,
      transaction_sync_button_enabled: true,
    });
    expect(await chartDifferences(await m.chart(target!.id), m.world.erp)).toEqual([]);
    expect(await m.chart(source)).toEqual(activeBefore);
    const active = await m.platform.connection.getActive();
    expect(active).toMatchObject({ id: source, is_active: true, is_ready_to_migrate: false });

    const [recorded] = await m.world.db.sql`select role, is_active from connections where id = ${target!.id}`;
    expect(recorded).toEqual({ role: 'migration_target', is_active: false });
    expect(result.nextSteps.join('\n')).toMatch(/Switch Providers/);
    expect(result.nextSteps.join('\n')).toMatch(/automations/i);
  });

  it('F7: keeps a backup of the old chart that reads back equal to what the platform held, in the file and in Postgres', async () => {
    const source = await m.fresh();
    const result = await m.prepare();
    expect(result.outcome).toBe('ready');

    const { backup, sha256 } = await readBackupFile(result.backupFile!);
    const onPlatform = await readPlatformChart(m.platform, source);
    expect(backup.chart).toEqual(onPlatform);
    expect(backup.connection.id).toBe(source);
    expect(backup.chart.gl_accounts.length).toBeGreaterThan(100);
    expect(
      backup.chart.gl_accounts.every((a) => typeof a.svc_id === 'string' && typeof a.is_active === 'boolean'),
    ).toBe(true);
    expect(backup.chart.fields.flatMap((f) => f.options).length).toBeGreaterThan(0);

    const [row] = await m.world.db.sql<{ document: unknown; sha256: string; file_path: string }[]>`
      select document, sha256, file_path from chart_backups where migration_id = ${result.migrationId}`;
    expect(row!.sha256).toBe(sha256);
    expect(row!.file_path).toBe(result.backupFile);
    expect(row!.document).toEqual(backup);
    expect(result.backupFile).toMatch(new RegExp(`${source}-\\d{8}T\\d{6}Z\\.json$`));
  });

  it('a second run after success changes nothing on the platform and says so', async () => {
    await m.fresh();
    const first = await m.prepare();
    expect(first.outcome).toBe('ready');
    const mark = await m.arrivalMark();

    const second = await m.prepare();

    expect(second.outcome).toBe('unchanged');
    expect(second.steps).toEqual([]);
    expect(second.notes.join('\n')).toMatch(/already prepared.*Nothing changed/s);
    expect(second.targetConnectionId).toBe(first.targetConnectionId);
    expect(writesOf(await m.arrivalsSince(mark))).toEqual([]);
    const [{ n }] = (await m.world.db
      .sql`select count(*)::int as n from connection_migrations`) as unknown as [{ n: number }];
    expect(n).toBe(1);
  });

  it('status shows the inactive connection, preload counts and readiness; the switch is recorded once the customer confirms', async () => {
    const source = await m.fresh();
    const result = await m.prepare();
    const status = await migrationStatus(m.deps());
    expect(status.readiness).toBe('ready');
    expect(status.target).toMatchObject({
      id: result.targetConnectionId,
      is_active: false,
      is_ready_to_migrate: true,
    });
    expect(status.source).toMatchObject({ id: source, is_active: true });
    expect(status.migration!.steps.every((s) => s.done)).toBe(true);
    const counts = status.migration!.counts!;
    expect(counts.gl_accounts!.platform).toBe(counts.gl_accounts!.erp);
    expect(counts.gl_accounts!.erp).toBeGreaterThan(100);
    expect(status.migration!.backup!.file).toBe(result.backupFile);

    // docs/platform.md G31, last row: the customer confirms the switch in the UI.
    await m.world.control('POST', `/__stub/connections/${result.targetConnectionId}/switch`);
    const after = await m.prepare();
    expect(after.outcome).toBe('unchanged');
    expect(after.state).toBe('switched');
    expect(after.notes.join('\n')).toMatch(/already switched/);
    const switched = await migrationStatus(m.deps());
    expect(switched.readiness).toBe('switched');
    const roles = await m.world.db
      .sql`select id, role, is_active from connections where id = ${result.targetConnectionId}`;
    expect(roles).toEqual([{ id: result.targetConnectionId, role: 'primary', is_active: true }]);
  });

  it('from a DIRECT connection (docs/platform.md G25: not synced by API): backed up and migrated all the same', async () => {
    await m.fresh();
    const direct = await m.world.control<{ id: string }>('POST', '/__stub/connections', {
      remote_provider_name: 'Direct ERP',
      connection_type: 'DIRECT',
    });
    const result = await m.prepare();
    expect(result.outcome, JSON.stringify(result.blocker)).toBe('ready');
    expect(result.sourceConnectionId).toBe(direct.id);
    expect(result.steps[0]!.detail).toBe('nothing outstanding; no other migration in progress');
    expect(await chartDifferences(await m.chart(result.targetConnectionId!), m.world.erp)).toEqual([]);
  });

  it('abandoning a ready migration warns that the platform still shows the connection ready (no API undoes it)', async () => {
    await m.fresh();
    const result = await m.prepare();
    const abandoned = await abandonOpenMigration(m.deps());
    expect(abandoned.abandoned!.state).toBe('abandoned');
    expect(abandoned.warnings.join('\n')).toContain(
      `Connection ${result.targetConnectionId} ("${PROVIDER}") is still marked ready`,
    );
    // Which is exactly F7's "another migration in progress" for the next attempt.
    const next = await m.prepare({ provider: 'Yet another' });
    expect(next.blocker!.code).toBe('no_migration_in_progress');
    expect(next.blocker!.fix).toContain(`--target ${result.targetConnectionId}`);
  });
});
