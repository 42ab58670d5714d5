import { mkdtemp, writeFile } from 'node:fs/promises';
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
});
