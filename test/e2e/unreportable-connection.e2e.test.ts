import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUEUE_NAMES } from '../../src/queue/index.ts';
import { runCli } from '../support/cli.ts';
import { useTestRedis } from '../support/redis.ts';
import { useSyncWorld, worldEnv } from '../support/sync-world.ts';

/**
 * A connection ledgersync may not report to is refused before anything is written
 * (docs/platform.md F39, G25), through the real binary: when the only active connection is DIRECT,
 * or PLATFORM_CONNECTION_ID names one, `sync` exits 78 with one line that says what to do, posts
 * nothing into the ERP, records nothing, calls no platform write and queues nothing. Picking it
 * would post every ready object into the ERP while every result post is refused (7089), leaving
 * them ready for the platform's own export to post again.
 */
const world = useSyncWorld();
const redis = useTestRedis();
const queues: Queue[] = [];

const cli = (args: string[], env: Record<string, string> = {}) =>
  runCli(args, { ...worldEnv(world, redis), ...env });

let direct = '';

beforeAll(async () => {
  await world.seed({ seed: 39, transactions: 40, reimbursements: 10, transfers: 5, cashbacks: 5, bills: 20 });
  // The customer linked the platform's own integration: it replaces the API connection.
  direct = (
    await world.control<{ id: string }>('POST', '/__stub/connections', {
      remote_provider_name: 'NetSuite (direct)',
      connection_type: 'DIRECT',
    })
  ).id;
  for (const name of [QUEUE_NAMES.objectSync, QUEUE_NAMES.coaMirror])
    queues.push(new Queue(name, { connection: { url: redis.url }, prefix: redis.prefix }));
});

afterAll(async () => {
  await Promise.all(queues.map((q) => q.close()));
});

/** Everything a run could have written: ERP entries, the worker's rows, platform writes, jobs. */
async function footprint() {
  const ledger = world.db.sql(world.ledgerSchema);
  const [counts] = await world.db.sql<{ entries: number; synced: number; mapped: number; runs: number }[]>`
    select (select count(*)::int from ${ledger}.journal_entries) as entries,
           (select count(*)::int from sync_ledger) as synced,
           (select count(*)::int from id_map) as mapped,
           (select count(*)::int from runs) as runs`;
  const { arrivals } = await world.control<{ arrivals: { method: string; route: string }[] }>(
    'GET',
    '/__stub/effects?include=arrivals&limit=100000',
  );
  // Every call but reads and the token call (each command asks for a token).
  const platformWrites = arrivals.filter((a) => a.method !== 'GET' && a.route !== '/token').length;
  const jobs = await Promise.all(queues.map((q) => q.count()));
  return { ...counts!, platformWrites, jobs };
}

describe('a DIRECT connection is never synced (docs/platform.md F39)', () => {
  it('F39: the only active connection is DIRECT: sync all exits 78 with one line, nothing posted or queued', async () => {
    const before = await footprint();
    for (const args of [
      ['sync', 'all'],
      ['sync', 'coa'],
      ['sync', 'all', '--via-worker'],
    ]) {
      const result = await cli(args);
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(78);
      expect(result.stderr.trim().split('\n')).toEqual([
        expect.stringMatching(
          new RegExp(
            `^ledgersync: The active accounting connection \\(${direct}\\) is a DIRECT connection, which takes no sync results by API \\(DEVELOPER_7089\\).*migrate prepare`,
          ),
        ),
      ]);
      expect(result.stdout).toBe('');
    }
    expect(await footprint()).toEqual(before);
    const [recorded] = await world.db.sql<{ n: number }[]>`
      select count(*)::int as n from connections where id = ${direct}`;
    expect(recorded?.n).toBe(0);
  });

  it('F39: the same where only the deprecated single read answers (it names the DIRECT connection)', async () => {
    await world.control('PUT', '/__stub/faults', { missing_routes: ['GET /accounting/all-connections'] });
    try {
      const before = await footprint();
      const result = await cli(['sync', 'transactions']);
      expect(result.code, result.stderr).toBe(78);
      expect(result.stderr).toMatch(/is a DIRECT connection/);
      expect(await footprint()).toEqual(before);
    } finally {
      await world.control('PUT', '/__stub/faults', {});
    }
  });

  it('F39: PLATFORM_CONNECTION_ID naming a DIRECT connection is refused the same, while an API one is active', async () => {
    // An API connection is active again; the variable still names the DIRECT one.
    await world.control('POST', '/__stub/connections', { remote_provider_name: 'Built-in ledger' });
    const before = await footprint();
    const result = await cli(['sync', 'all'], { PLATFORM_CONNECTION_ID: direct });
    expect(result.code, result.stderr).toBe(78);
    expect(result.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        new RegExp(
          `^ledgersync: PLATFORM_CONNECTION_ID names connection ${direct}, a DIRECT connection, .*Set it to the id of an API connection`,
        ),
      ),
    ]);
    expect(await footprint()).toEqual(before);
  });
});
