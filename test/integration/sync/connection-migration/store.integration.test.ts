import { beforeEach, describe, expect, it } from 'vitest';
import {
  MIGRATION_STATES,
  TERMINAL_STATES,
  TRANSITIONS,
} from '../../../../src/sync/connection-migration/states.ts';
import {
  abandonMigration,
  moveMigration,
  openMigration,
  saveBackup,
  snapshotConnections,
  startMigration,
} from '../../../../src/sync/connection-migration/store.ts';
import { useTestDatabase } from '../../../support/db.ts';

const db = useTestDatabase();
const start = () =>
  startMigration(db.sql, { sourceConnectionId: 'c-1', provider: 'New', targetConnectionId: null });

beforeEach(async () => {
  await db.sql`truncate connection_migrations, chart_backups restart identity cascade`;
});

describe('the migration state machine, kept as data and checked in SQL (db/migrations/0005_migration.sql)', () => {
  it('the tables hold the same states and moves as src/sync/connection-migration/states.ts', async () => {
    const states = await db.sql<{ state: string; terminal: boolean }[]>`
      select state, terminal from migration_states order by position`;
    expect(states.map((s) => s.state)).toEqual([...MIGRATION_STATES]);
    expect(states.filter((s) => s.terminal).map((s) => s.state)).toEqual([...TERMINAL_STATES]);
    const moves = await db.sql<{ from_state: string; to_state: string }[]>`
      select from_state, to_state from migration_transitions`;
    const key = (from: string, to: string) => `${from}→${to}`;
    expect(moves.map((m) => key(m.from_state, m.to_state)).sort()).toEqual(
      TRANSITIONS.map(([from, to]) => key(from, to)).sort(),
    );
  });

  it('a move happens only from the expected state and only when the table allows it', async () => {
    const row = (await start())!;
    expect(await moveMigration(db.sql, row.id, 'started', 'ready')).toBeNull();
    expect(await moveMigration(db.sql, row.id, 'checked', 'backed_up')).toBeNull();
    const moved = await moveMigration(db.sql, row.id, 'started', 'checked', { outstanding: { total: 0 } });
    expect(moved).toMatchObject({ state: 'checked', outstanding: { total: 0 } });
    // The same move again finds the row no longer in 'started': nothing happens.
    expect(await moveMigration(db.sql, row.id, 'started', 'checked')).toBeNull();
  });

  it('two processes taking the same step at once: exactly one moves the row', async () => {
    const row = (await start())!;
    const results = await Promise.all(
      Array.from({ length: 8 }, () => moveMigration(db.sql, row.id, 'started', 'checked')),
    );
    expect(results.filter((r) => r !== null)).toHaveLength(1);
  });

  it('one open migration at a time; a new one may start once the last is abandoned', async () => {
    const first = (await start())!;
    expect(await start()).toBeNull();
    expect((await openMigration(db.sql))!.id).toBe(first.id);
    const abandoned = await abandonMigration(db.sql, first);
    expect(abandoned).toMatchObject({ state: 'abandoned' });
    expect(abandoned!.finishedAt).toBeInstanceOf(Date);
    expect(await openMigration(db.sql)).toBeNull();
    const second = await start();
    expect(second).toMatchObject({ state: 'started' });
    expect(second!.id).not.toBe(first.id);
  });

  it('the connection snapshot is taken once: a later call keeps the first', async () => {
    const row = (await start())!;
    expect(await snapshotConnections(db.sql, row.id, ['a'])).toEqual(['a']);
    expect(await snapshotConnections(db.sql, row.id, ['a', 'b'])).toEqual(['a']);
  });

  it('a backup saved again (re-run after a crash) replaces the first and moves the state once', async () => {
    const row = (await start())!;
    await moveMigration(db.sql, row.id, 'started', 'checked');
    const backup = {
      migrationId: row.id,
      connectionId: 'c-1',
      filePath: '/tmp/x.json',
      itemCount: 1,
      counts: { gl_accounts: 1 },
      sha256: 'abc',
      document: { format: 'x', items: [1] },
    };
    expect(await saveBackup(db.sql, backup)).toMatchObject({ state: 'backed_up' });
    // The state already moved: the transaction stores the backup but the move is refused.
    expect(await saveBackup(db.sql, { ...backup, sha256: 'def' })).toBeNull();
    const rows = await db.sql`select sha256, document from chart_backups`;
    expect(rows).toEqual([{ sha256: 'def', document: { format: 'x', items: [1] } }]);
  });
});
