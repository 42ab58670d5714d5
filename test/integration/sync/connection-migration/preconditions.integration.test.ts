import { describe, expect, it } from 'vitest';
import type { PlatformClient } from '../../../../src/platform/index.ts';
import { abandonOpenMigration, describeBlocker } from '../../../../src/sync/connection-migration/index.ts';
import type { PrepareResult } from '../../../../src/sync/connection-migration/types.ts';
import { SimulatedCrash } from '../mirror/support/crashing-platform.ts';
import { useMigrationWorld } from './support/world.ts';

const m = useMigrationWorld();

const stopAfterVerify = (step: string, phase: string) => {
  if (step === 'verify' && phase === 'recorded') throw new SimulatedCrash('stopped after verify');
};

/** Another connection, inactive and marked ready: another migration in progress (F7). */
async function otherReadyConnection(): Promise<string> {
  const other = await m.platform.connection.create({
    remote_provider_name: 'Someone else',
    is_active: false,
  });
  await m.platform.connection.markReadyToMigrate(other.id);
  return other.id;
}

function blockedWith(result: PrepareResult, code: string) {
  expect(result.outcome, JSON.stringify(result)).toBe('blocked');
  expect(result.blocker!.code).toBe(code);
  return describeBlocker(result.blocker!);
}

describe('the four ready-to-migrate preconditions, each with its own message (docs/platform.md F7)', () => {
  it('F7 precondition 1, a DIRECT connection named as the target: not an inactive API connection', async () => {
    await m.fresh();
    const direct = await m.world.control<{ id: string }>('POST', '/__stub/connections', {
      remote_provider_name: 'Direct ERP',
      connection_type: 'DIRECT',
      is_active: false,
    });
    const text = blockedWith(await m.prepare({ targetConnectionId: direct.id }), 'inactive_api_connection');
    expect(text).toContain(`connection ${direct.id} ("Direct ERP")`);
    expect(text).toContain('DIRECT connection, not an API one');
    expect(text).toMatch(
      /What to do: Run `npx ledgersync migrate prepare --provider "<name>"` without --target/,
    );
  });

  it('F7 precondition 1, the active connection named as the target: not inactive', async () => {
    const source = await m.fresh();
    const text = blockedWith(await m.prepare({ targetConnectionId: source }), 'inactive_api_connection');
    expect(text).toContain('it is the active connection');
  });

  it('F7 precondition 2: the active connection was unlinked before ready-to-migrate', async () => {
    await m.fresh();
    await expect(m.prepare({ checkpoint: stopAfterVerify })).rejects.toBeInstanceOf(SimulatedCrash);
    expect(await m.platform.connection.unlink()).toBe(true);

    const result = await m.prepare();
    const text = blockedWith(result, 'active_connection_exists');
    expect(text).toMatch(/no active accounting connection apart from the new one/);
    expect(text).toMatch(/re-link\) the current ERP connection/);
    const target = await m.platform.connection.get(result.targetConnectionId!);
    expect(target!.is_ready_to_migrate).toBe(false);
    const [row] = await m.world.db.sql`select state, last_error from connection_migrations`;
    expect(row!.state).toBe('verified');
    expect(row!.last_error).toMatch(/^ready: There is no active accounting connection/);
  });

  it('F7 precondition 2: no active connection at all when starting', async () => {
    await m.fresh();
    await m.platform.connection.unlink();
    blockedWith(await m.prepare(), 'active_connection_exists');
  });

  it('F7 precondition 3: a target already marked ready is said to be so, and the run completes', async () => {
    await m.fresh();
    const target = await m.platform.connection.create({
      remote_provider_name: 'Prepared elsewhere',
      is_active: false,
    });
    await m.platform.connection.markReadyToMigrate(target.id);

    const result = await m.prepare({ targetConnectionId: target.id });

    expect(result.outcome, JSON.stringify(result.blocker)).toBe('ready');
    const note = result.notes.find((n) => n.includes('already marked ready to migrate'));
    expect(note).toContain(
      `connection ${target.id} ("Prepared elsewhere") is already marked ready to migrate`,
    );
    expect(note).toContain('the customer can complete the switch under Switch Providers');
  });

  it('F7 precondition 4: another connection already ready stops the run at its first step', async () => {
    await m.fresh();
    const other = await otherReadyConnection();
    const text = blockedWith(await m.prepare(), 'no_migration_in_progress');
    expect(text).toContain(`Another migration is in progress: connection ${other} ("Someone else")`);
    expect(text).toContain(`--target ${other}`);
    const [row] = await m.world.db.sql`select state from connection_migrations`;
    expect(row!.state).toBe('started');
  });

  it('F7 precondition 4: another connection marked ready during the run stops it before ready-to-migrate', async () => {
    await m.fresh();
    await expect(m.prepare({ checkpoint: stopAfterVerify })).rejects.toBeInstanceOf(SimulatedCrash);
    const other = await otherReadyConnection();
    const result = await m.prepare();
    expect(blockedWith(result, 'no_migration_in_progress')).toContain(other);
    expect((await m.platform.connection.get(result.targetConnectionId!))!.is_ready_to_migrate).toBe(false);
  });
});

/** The platform client, with something happening on the platform just before ready-to-migrate. */
function raceBeforeReady(before: (targetId: string) => Promise<void>): PlatformClient {
  const connection = new Proxy(m.platform.connection, {
    get: (target, property, receiver) =>
      property === 'markReadyToMigrate'
        ? async (id: string) => {
            await before(id);
            return target.markReadyToMigrate(id);
          }
        : Reflect.get(target, property, receiver),
  });
  return new Proxy(m.platform, {
    get: (target, property, receiver) =>
      property === 'connection' ? connection : Reflect.get(target, property, receiver),
  });
}

describe("the platform's own 409 refusals (docs/platform.md F7), mapped to the same messages", () => {
  it('another connection marked ready between our check and our call: precondition 4, naming it', async () => {
    await m.fresh();
    let other = '';
    const platform = raceBeforeReady(async () => {
      other = await otherReadyConnection();
    });
    const result = await m.prepare({}, { platform });
    const text = blockedWith(result, 'no_migration_in_progress');
    expect(text).toContain(`connection ${other} ("Someone else") is already marked ready`);
  });

  it('our target marked ready between our check and our call (a retried request landed): accepted, said so', async () => {
    await m.fresh();
    const platform = raceBeforeReady(async (id) => {
      await m.platform.connection.markReadyToMigrate(id);
    });
    const result = await m.prepare({}, { platform });
    expect(result.outcome, JSON.stringify(result.blocker)).toBe('ready');
    expect(result.notes.join('\n')).toContain('is already marked ready to migrate');
  });
});

describe("the runner's own preconditions (docs/platform.md G30)", () => {
  it('another migration open here, to another provider: says which, and how to finish or drop it', async () => {
    await m.fresh();
    await expect(m.prepare({ provider: 'First', checkpoint: stopAfterVerify })).rejects.toBeInstanceOf(
      SimulatedCrash,
    );
    const text = blockedWith(await m.prepare({ provider: 'Second' }), 'migration_in_progress_here');
    expect(text).toMatch(/#1 to "First" \(state verified, connection /);
    expect(text).toContain('migrate prepare --provider "First"');
    expect(text).toContain('migrate abandon');

    const abandoned = await abandonOpenMigration(m.deps());
    expect(abandoned.abandoned!.state).toBe('abandoned');
    expect(abandoned.warnings).toEqual([]);
    expect((await m.prepare({ provider: 'Second' })).outcome).toBe('ready');
  });

  it('ready objects that do not sync stop the run with their ids and reasons; --force goes on and records them', async () => {
    await m.fresh();
    await m.world.seed({
      seed: 5,
      transactions: 40,
      reimbursements: 0,
      transfers: 0,
      cashbacks: 0,
      bills: 0,
      uncoded_fraction: 0.3,
      ready_fraction: 1,
      synced_fraction: 0,
    });

    // --skip-sync: listed as they are, nothing synced.
    const listed = await m.prepare({ skipSync: true });
    expect(blockedWith(listed, 'outstanding_objects')).toMatch(/\n {2}transactions: 40\n/);
    expect(await m.world.db.sql`select 1 from sync_ledger`).toHaveLength(0);

    const blocked = await m.prepare();
    const text = blockedWith(blocked, 'outstanding_objects');
    expect(text).toMatch(/\d+ objects are still waiting to sync on the connection being left/);
    expect(text).toMatch(/\n {2}transactions: \d+\n {4}\S+ — Action needed: /);
    expect(text).toContain('--force');
    const [row] = await m.world.db.sql`select state from connection_migrations`;
    expect(row!.state).toBe('started');
    // The sync ran first: what could sync is synced, only the refused ones are left.
    const [{ n }] = (await m.world.db
      .sql`select count(*)::int as n from sync_ledger where outcome = 'success'`) as unknown as [
      { n: number },
    ];
    expect(n).toBeGreaterThan(0);

    const forced = await m.prepare({ force: true });
    expect(forced.outcome, JSON.stringify(forced.blocker)).toBe('ready');
    expect(forced.notes.join('\n')).toMatch(/--force: \d+ objects were left unsynced/);
    const [kept] = await m.world.db.sql`select outstanding from connection_migrations`;
    expect((kept!.outstanding as { total: number }).total).toBeGreaterThan(0);
  });
});
