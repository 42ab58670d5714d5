import { timeOf } from '@ledgersync/stub';
import { round } from '../lib/bulk-sync.ts';
import type { BenchContext } from '../lib/context.ts';
import { distribution } from '../lib/percentile.ts';
import { stubToken, timePages } from '../lib/raw-pages.ts';
import { check, type ScenarioResult, verdictOf } from '../lib/result.ts';
import { readRssMB } from '../lib/rss-sampler.ts';
import { startStubProcess } from '../lib/stub-process.ts';

const TITLE = 'Stub scale';
/** "Does not grow with the world": p50 per page in the large world at most this times the small one. */
const MAX_GROWTH = 1.5;
const PAGE_SIZE = 100;

interface WorldTiming {
  world: number;
  from: 'start' | 'end';
  seedMs: number;
  stubRssMB: number | null;
  perPageMs: ReturnType<typeof distribution>;
  objects: number;
}

/** Seeds a world of `size` ready transactions in a fresh stub process and pages `read` of them. */
async function timeWorld(size: number, read: number, from: 'start' | 'end'): Promise<WorldTiming> {
  const stub = await startStubProcess({ rateMax: 0, rateWindowMs: 10_000, latencyMs: 0 });
  try {
    const seeded = await stub.control<{ elapsed_ms: number }>('POST', '/__stub/seed', {
      seed: 5,
      transactions: size,
      reimbursements: 0,
      transfers: 0,
      cashbacks: 0,
      bills: 0,
      ready_fraction: 1,
      synced_fraction: 0,
    });
    const token = await stubToken(stub.apiUrl, 'transactions:read');
    const query = new URLSearchParams({ sync_status: 'SYNC_READY', page_size: String(PAGE_SIZE) });
    if (from === 'end') query.set('from_date', new Date(timeOf('transaction', size - read)).toISOString());
    const url = `${stub.apiUrl}/transactions?${query}`;
    await timePages(url, token, 5); // warm-up: connection, JIT
    const timed = await timePages(url, token, Math.ceil(read / PAGE_SIZE));
    return {
      world: size,
      from,
      seedMs: round(seeded.elapsed_ms),
      stubRssMB: readRssMB(stub.child.pid) === null ? null : round(readRssMB(stub.child.pid)!),
      perPageMs: roundAll(distribution(timed.ms)),
      objects: timed.objects,
    };
  } finally {
    await stub.stop();
  }
}

function roundAll(d: ReturnType<typeof distribution>): ReturnType<typeof distribution> {
  return Object.fromEntries(
    Object.entries(d).map(([k, v]) => [k, k === 'count' ? v : round(v, 2)]),
  ) as ReturnType<typeof distribution>;
}

/** Time per page of 100 in a 10,000 and a 1,000,000-object world: it must not grow with the world. */
export async function stubScale(_ctx: BenchContext): Promise<ScenarioResult> {
  const started = Date.now();
  const read = 10_000;
  const small = await timeWorld(10_000, read, 'start');
  const large = await timeWorld(1_000_000, read, 'start');
  const largeEnd = await timeWorld(1_000_000, read, 'end');
  const growth = large.perPageMs.p50 / small.perPageMs.p50;
  const growthEnd = largeEnd.perPageMs.p50 / small.perPageMs.p50;
  const targets = [
    check('p50 per page, 1M / 10k world', `<= ${MAX_GROWTH}x`, `${round(growth, 2)}x`, growth <= MAX_GROWTH),
    check('same, last 10,000 of 1M', `<= ${MAX_GROWTH}x`, `${round(growthEnd, 2)}x`, growthEnd <= MAX_GROWTH),
  ];
  const verdict = verdictOf(targets);
  return {
    id: '6',
    title: TITLE,
    verdict,
    figures:
      `${read} objects in pages of ${PAGE_SIZE}, p50 per page: 10k world ${small.perPageMs.p50} ms, ` +
      `1M world ${large.perPageMs.p50} ms (last 10,000: ${largeEnd.perPageMs.p50} ms); seeding 1M ${large.seedMs} ms`,
    targets,
    metrics: { small, large, largeEnd, growth: round(growth, 3), growthEnd: round(growthEnd, 3) },
    settings: {
      worlds: [10_000, 1_000_000],
      read,
      pageSize: PAGE_SIZE,
      query: 'GET /transactions?sync_status=SYNC_READY&page_size=100, following page.next',
      client: 'plain fetch with a bearer token in the bench process (no limiter, no parsing beyond JSON)',
    },
    notes: ['time per page: one HTTP round trip to the stub process, body read and JSON-parsed'],
    ...(verdict === 'missed'
      ? { bottleneck: `p50 per page grows ${round(growth, 2)}x from a 10k to a 1M world` }
      : {}),
    durationMs: Date.now() - started,
  };
}
