import { describe, expect, it } from 'vitest';
import { KIND_SPECS } from '../../src/sync/objects/index.ts';
import { runCli } from '../support/cli.ts';
import { useTestRedis } from '../support/redis.ts';
import { useSyncWorld, worldEnv } from '../support/sync-world.ts';

/**
 * Answers the platform's published schema allows, through the real binary: a page link that
 * leads nowhere stops only its own kind (docs/platform.md F43), and the connection is read from
 * the list of all connections, or from the single read where the list is missing, whose `{}`
 * means "no active connection" (F39).
 */
const world = useSyncWorld();
const redis = useTestRedis();

const cli = (...args: string[]) => runCli(args, { ...worldEnv(world, redis) });
const lastJson = <T>(stdout: string): T => JSON.parse(stdout.trim().split('\n').at(-1)!) as T;

interface Mark {
  object_id: string;
  sync_type: string;
  result: string;
}
const marks = async () =>
  (await world.control<{ marks: Mark[] }>('GET', '/__stub/effects?include=marks&limit=100000')).marks;

type KindLine = { kind: string; read?: number; stopped?: boolean; reason?: string };

describe('a kind the platform stops part-way (docs/platform.md F43)', () => {
  it('F43: a bills page.next that leads to a 404 stops bills alone; every other kind runs, exit 4', async () => {
    await world.seed({
      seed: 43,
      transactions: 150,
      reimbursements: 30,
      transfers: 10,
      cashbacks: 10,
      bills: 250,
    });
    await world.control('PUT', '/__stub/faults', { page_links: { '/bills': 'gone' } });
    try {
      const result = await cli('sync', 'all', '--json');
      expect(result.code, result.stderr).toBe(4);
      expect(result.stderr).toMatch(/bills: .*page\.next leads away from \/bills/);
      expect(result.stderr).not.toMatch(/\n\s+at /); // one explanation, no stack trace
      const lines = lastJson<KindLine[]>(result.stdout);
      expect(lines.map((l) => l.kind ?? 'coa')).toEqual([
        'coa',
        'transactions',
        'reimbursements',
        'transfers',
        'cashbacks',
        'bills',
      ]);
      const bills = lines.find((l) => l.kind === 'bills')!;
      expect(bills.stopped).toBe(true);
      for (const kind of ['transactions', 'reimbursements', 'transfers', 'cashbacks'])
        expect(lines.find((l) => l.kind === kind)?.read, kind).toBeGreaterThan(0);

      // The first page of bills was read before the bad link: each of its objects was written and
      // reported (nothing read is left unanswered), and every other kind was reported too.
      const ledger = await world.db.sql<{ sync_type: string; state: string }[]>`
        select sync_type, state from sync_ledger`;
      expect(ledger.filter((r) => r.sync_type === 'BILL_SYNC').length).toBeGreaterThan(0);
      expect(ledger.filter((r) => r.state !== 'REPORTED')).toEqual([]);
      const marked = new Set((await marks()).map((m) => m.sync_type));
      for (const type of ['TRANSACTION_SYNC', 'REIMBURSEMENT_SYNC', 'TRANSFER_SYNC', 'BILL_SYNC'])
        expect(marked, type).toContain(type);
    } finally {
      await world.control('PUT', '/__stub/faults', {});
    }
  });

  it('F43: a page.next that leads to another list stops that kind and reads none of the other list', async () => {
    await world.seed({ seed: 44, transactions: 0, reimbursements: 250, transfers: 5 });
    await world.control('PUT', '/__stub/faults', { page_links: { '/reimbursements': 'other_list' } });
    try {
      const result = await cli('sync', 'reimbursements');
      expect(result.code, result.stderr).toBe(4);
      expect(result.stdout).toMatch(/^reimbursements: stopped early after [1-9]\d* read/m);
      expect(result.stderr).toMatch(
        /reimbursements: .*leads away from \/reimbursements \(to .*\/transfers\)/,
      );
      // Nothing of the transfer list was taken for a reimbursement.
      const transfers = new Set(
        (await world.platform.objects.list(KIND_SPECS.transfers.list).collect()).values.map((t) => t.id),
      );
      expect(transfers.size).toBeGreaterThan(0);
      const reported = await world.db.sql<{ object_id: string }[]>`
        select object_id from sync_ledger where sync_type = 'REIMBURSEMENT_SYNC'`;
      expect(reported.length).toBeGreaterThan(0);
      expect(reported.filter((r) => transfers.has(r.object_id))).toEqual([]);
    } finally {
      await world.control('PUT', '/__stub/faults', {});
    }
  });

  it('F43: with the link mended, the next run reads the rest of the kind', async () => {
    const result = await cli('sync', 'all', '--json');
    expect([0, 3], result.stderr).toContain(result.code);
    expect(lastJson<KindLine[]>(result.stdout).filter((l) => l.stopped)).toEqual([]);
  });
});

describe('the active connection (docs/platform.md F39)', () => {
  it('F39: where GET /accounting/all-connections is missing, the single read is used', async () => {
    await world.control('PUT', '/__stub/faults', { missing_routes: ['GET /accounting/all-connections'] });
    try {
      const result = await cli('sync', 'transfers', '--json');
      expect([0, 3], result.stderr).toContain(result.code);
      const arrivals = (
        await world.control<{ arrivals: { route: string; status: number }[] }>(
          'GET',
          '/__stub/effects?include=arrivals&limit=100000',
        )
      ).arrivals;
      const connectionReads = arrivals.filter((a) => a.route === '/accounting/connection');
      expect(connectionReads.length).toBeGreaterThan(0);
    } finally {
      await world.control('PUT', '/__stub/faults', {});
    }
  });

  it('F39: no active connection ({} from the single read) is one line that says what to do, exit 78', async () => {
    await world.control('PUT', '/__stub/faults', { missing_routes: ['GET /accounting/all-connections'] });
    const deleted = await world.platform.connection.unlink();
    expect(deleted).toBe(true);
    try {
      for (const args of [
        ['sync', 'coa'],
        ['sync', 'all'],
      ]) {
        const result = await cli(...args);
        expect(result.code, result.stderr).toBe(78);
        expect(result.stderr.trim().split('\n')).toEqual([
          expect.stringMatching(
            /^ledgersync: The platform has no active accounting connection .*connection create/,
          ),
        ]);
      }
      await world.control('PUT', '/__stub/faults', {});
      // The same through the list of all connections.
      const listed = await cli('sync', 'all');
      expect(listed.code, listed.stderr).toBe(78);
      expect(listed.stderr).toMatch(/no active accounting connection/);
    } finally {
      await world.control('PUT', '/__stub/faults', {});
    }
  });
});
