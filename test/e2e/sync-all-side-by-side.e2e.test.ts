import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.ts';
import { useTestRedis } from '../support/redis.ts';
import { useSyncWorld, worldEnv } from '../support/sync-world.ts';

/**
 * `sync all` reads every kind side by side under one rate budget: the order of the requests the
 * stub saw (its sequence numbers, not the clock) shows kinds overlapping, and the summary lines
 * still come in the kinds' fixed order whichever kind finished first.
 */
const world = useSyncWorld();
const redis = useTestRedis();

const cli = (...args: string[]) => runCli(args, { ...worldEnv(world, redis) });
const lastJson = <T>(stdout: string): T => JSON.parse(stdout.trim().split('\n').at(-1)!) as T;

interface ArrivalRow {
  seq: number;
  method: string;
  route: string;
  status: number;
}
const arrivals = async () =>
  (await world.control<{ arrivals: ArrivalRow[] }>('GET', '/__stub/effects?include=arrivals&limit=100000'))
    .arrivals;

/** The first and last sequence number of the list reads of one kind (its route ends with the kind). */
function readSpan(rows: ArrivalRow[], kind: string): { first: number; last: number } {
  const seqs = rows.filter((r) => r.method === 'GET' && r.route.endsWith(`/${kind}`)).map((r) => r.seq);
  expect(seqs.length, `reads of ${kind}`).toBeGreaterThan(0);
  return { first: Math.min(...seqs), last: Math.max(...seqs) };
}

type KindLine = { kind?: string; read?: number; stopped?: boolean };
const ORDER = ['transactions', 'reimbursements', 'transfers', 'cashbacks', 'bills'];

describe('sync all reads the kinds side by side', () => {
  it('every kind is being read while transactions are; the lines still come in the kinds order', async () => {
    await world.seed({
      seed: 11,
      transactions: 2500,
      reimbursements: 400,
      transfers: 150,
      cashbacks: 120,
      bills: 300,
      vendor_creation_fraction: 0,
    });
    const before = (await arrivals()).at(-1)?.seq ?? 0;
    const result = await cli('sync', 'all');
    expect([0, 3], result.stderr).toContain(result.code);
    const rows = (await arrivals()).filter((r) => r.seq > before);
    const transactions = readSpan(rows, 'transactions');
    // Old behaviour: each kind was read only once the kind before it had finished.
    for (const kind of ORDER.slice(1))
      expect(readSpan(rows, kind).first, kind).toBeLessThan(transactions.last);
    // Cashbacks (two pages) were done before transactions (25 pages) ...
    expect(readSpan(rows, 'cashbacks').last).toBeLessThan(transactions.last);
    // ... and their lines are still printed in the kinds' order, after the chart's.
    const kindsPrinted = result.stdout
      .split('\n')
      .map((line) => line.split(':')[0]!)
      .filter((k) => ORDER.includes(k));
    expect(kindsPrinted).toEqual(ORDER);
    expect(result.stdout.split('\n')[0]).toMatch(/^coa: /);
  });

  it('F43: a kind the platform stops part-way stops alone while the others are still being read', async () => {
    await world.seed({
      seed: 12,
      transactions: 2500,
      reimbursements: 300,
      transfers: 150,
      cashbacks: 120,
      bills: 300,
      vendor_creation_fraction: 0,
    });
    await world.control('PUT', '/__stub/faults', { page_links: { '/reimbursements': 'gone' } });
    try {
      const before = (await arrivals()).at(-1)?.seq ?? 0;
      const result = await cli('sync', 'all', '--json');
      expect(result.code, result.stderr).toBe(4);
      const rows = (await arrivals()).filter((r) => r.seq > before);
      // Reimbursements stopped at their broken link (after their first page) while transactions
      // were still being read ...
      expect(readSpan(rows, 'reimbursements').last).toBeLessThan(readSpan(rows, 'transactions').last);
      // ... and every other kind was still read to its end, its line in the kinds' order.
      const lines = lastJson<KindLine[]>(result.stdout);
      expect(lines.map((l) => l.kind ?? 'coa')).toEqual(['coa', ...ORDER]);
      expect(lines.find((l) => l.kind === 'reimbursements')?.stopped).toBe(true);
      for (const kind of ['transactions', 'transfers', 'cashbacks', 'bills'])
        expect(lines.find((l) => l.kind === kind)?.read, kind).toBeGreaterThan(0);
    } finally {
      await world.control('PUT', '/__stub/faults', {});
    }
  });
});
