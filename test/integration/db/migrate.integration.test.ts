import { copyFile, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listMigrations, migrate, WORKER_MIGRATIONS } from '../../../db/runner.ts';
import { useTestDatabase } from '../../support/db.ts';

const db = useTestDatabase({ migrate: false });

describe('migration runner', () => {
  it('applies each file once even when many runs race on one schema', async () => {
    const schema = db.newSchema('race');
    const runs = await Promise.all(
      Array.from({ length: 6 }, () => migrate(db.sql, { schema, dir: WORKER_MIGRATIONS })),
    );
    const applied = runs.flatMap((r) => r.applied);
    expect(applied).toEqual(await listMigrations(WORKER_MIGRATIONS));
    const tables =
      await db.sql`select table_name from information_schema.tables where table_schema = ${schema}`;
    expect(tables.map((t) => t.table_name)).toEqual(
      expect.arrayContaining(['sync_ledger', 'result_batches', 'id_map']),
    );
  });

  it('is forward only: a failing file rolls back with everything after it, and nothing is recorded', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ls-mig-'));
    await writeFile(join(dir, '0001_ok.sql'), 'create table a (x int);');
    await writeFile(join(dir, '0002_bad.sql'), 'create table b (x int); select * from missing_table;');
    const schema = db.newSchema('bad');
    await expect(migrate(db.sql, { schema, dir })).rejects.toThrow(/missing_table/);
    const tables =
      await db.sql`select table_name from information_schema.tables where table_schema = ${schema}`;
    expect(tables).toHaveLength(0);
  });

  it('refuses two files with one number', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ls-mig-'));
    await writeFile(join(dir, '0001_a.sql'), 'select 1;');
    await writeFile(join(dir, '0001_b.sql'), 'select 1;');
    await expect(listMigrations(dir)).rejects.toThrow(/share the number 0001/);
  });

  it('0018 renames the connection migrations of a database in use: rows, ids and the one-open rule stay', async () => {
    // The worker's folder as it was before 0018, under the same folder name, so the runner keeps
    // the same bookkeeping table when the whole folder is applied next.
    const before = join(await mkdtemp(join(tmpdir(), 'ls-mig-')), 'migrations');
    await mkdir(before);
    for (const name of await listMigrations(WORKER_MIGRATIONS))
      if (name < '0018') await copyFile(join(WORKER_MIGRATIONS, name), join(before, name));
    const schema = db.newSchema('rename');
    await migrate(db.sql, { schema, dir: before });
    await db.sql.unsafe(
      `insert into "${schema}".migrations (source_connection_id, provider) values ('conn-a', 'erp')`,
    );

    const { applied } = await migrate(db.sql, { schema, dir: WORKER_MIGRATIONS });
    expect(applied[0]).toBe('0018_connection_migrations.sql');
    const table = `"${schema}".connection_migrations`;
    expect(await db.sql.unsafe(`select id::int, source_connection_id, state from ${table}`)).toEqual([
      { id: 1, source_connection_id: 'conn-a', state: 'started' },
    ]);
    // The ids continue; at most one open connection migration, still.
    await db.sql.unsafe(`update ${table} set state = 'abandoned'`);
    const [next] = await db.sql.unsafe(
      `insert into ${table} (source_connection_id, provider) values ('conn-b', 'erp') returning id::int`,
    );
    expect(next).toEqual({ id: 2 });
    await expect(
      db.sql.unsafe(`insert into ${table} (source_connection_id, provider) values ('conn-c', 'erp')`),
    ).rejects.toThrow(/connection_migrations_one_open/);
    const indexes = await db.sql`select indexname from pg_indexes where schemaname = ${schema}
      and tablename = 'connection_migrations' order by indexname`;
    expect(indexes.map((i) => i.indexname)).toEqual([
      'connection_migrations_one_open',
      'connection_migrations_pkey',
      'connection_migrations_recent',
    ]);
  });
});
