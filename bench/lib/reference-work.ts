import { createHash } from 'node:crypto';
import { percentile } from './percentile.ts';

/**
 * A fixed piece of CPU work timed at the start and the end of every benchmark run, so runs on
 * different machines (or on one machine whose host got busier) can be compared: the rate rows and
 * the raw pipeline are CPU-bound on 2 cores, and the same code took 52 s of worker CPU for the
 * raw pipeline's 200,000 objects one day and 95 s the next, on the same kind of machine. The work
 * is of the kind a page costs the worker, without any I/O: parse a page of 100 objects from JSON,
 * map every object, serialise the mapped list and hash it. It uses no project code, so a change
 * to the project cannot change this figure: only the machine can. Lower is faster.
 */
export interface ReferenceWork {
  /** Median of the timed trials, in milliseconds. */
  ms: number;
  /** Every timed trial, in milliseconds, in the order run. */
  trialsMs: number[];
}

/** Pages processed per trial: a trial takes a few hundred ms on the benchmark's 2-core machines. */
export const PAGES_PER_TRIAL = 400;
const TRIALS = 9;

/** The page the work parses: 100 objects from a fixed seed, the same on every machine and run. */
export function referencePage(): string {
  let seed = 20_261_126;
  const next = () => {
    // A linear congruential generator: deterministic, no dependency.
    seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
    return seed;
  };
  const items = Array.from({ length: 100 }, (_, i) => ({
    id: `tx_${i.toString().padStart(6, '0')}_${next().toString(36)}`,
    amount: { amount: next() % 1_000_000, currency_code: 'USD' },
    user_transaction_time: new Date(1_700_000_000_000 + (next() % 86_400_000)).toISOString(),
    merchant_name: `Merchant ${next() % 997}`,
    memo: next() % 3 === 0 ? null : `Receipt ${next().toString(16)} for the team offsite`,
    accounting_field_selections: Array.from({ length: 3 }, (_, j) => ({
      field_external_id: `field_${j}`,
      external_code: `option_${next() % 50}`,
      name: `Option ${next() % 50}`,
    })),
    line_items: [{ amount: { amount: next() % 1_000_000, currency_code: 'USD' }, memo: null }],
  }));
  return JSON.stringify({ data: items, page: { next: `cursor_${next().toString(36)}` } });
}

interface PageItem {
  id: string;
  amount: { amount: number; currency_code: string };
  user_transaction_time: string;
  merchant_name: string;
  memo: string | null;
  accounting_field_selections: { field_external_id: string; external_code: string }[];
}

/** One page's work; returns a number that depends on every step, so nothing is optimised away. */
function onePage(text: string): number {
  const page = JSON.parse(text) as { data: PageItem[] };
  const mapped = page.data.map((item) => ({
    objectId: item.id,
    date: item.user_transaction_time.slice(0, 10),
    amountMinor: item.amount.amount,
    memo: (item.memo ?? item.merchant_name).trim(),
    codes: item.accounting_field_selections.map((s) => `${s.field_external_id}=${s.external_code}`).join(';'),
  }));
  const digest = createHash('sha256').update(JSON.stringify(mapped)).digest();
  return digest.readUInt32BE(0);
}

/** `pages` pages' work on one page text; the sum of what each returned. */
function runPages(text: string, pages: number): number {
  let sum = 0;
  for (let i = 0; i < pages; i++) sum = (sum + onePage(text)) >>> 0;
  return sum;
}

/** The checksum of one trial: fixed for the fixed page, whatever the machine. */
export function referenceChecksum(pages = PAGES_PER_TRIAL): number {
  return runPages(referencePage(), pages);
}

/** Times the reference work: one warm-up trial, then TRIALS timed ones; the median is the figure. */
export function measureReferenceWork(trials = TRIALS, pages = PAGES_PER_TRIAL): ReferenceWork {
  const text = referencePage();
  const trial = (): number => {
    const t0 = performance.now();
    // Compared so the work cannot be dropped as unused; the sum is never 0.5.
    if (runPages(text, pages) === 0.5) throw new Error('unreachable');
    return performance.now() - t0;
  };
  trial();
  const trialsMs = Array.from({ length: trials }, () => Math.round(trial() * 10) / 10);
  return { ms: percentile(trialsMs, 50), trialsMs };
}

/** The reference work timed at both ends of a run. */
export interface ReferenceWorkAtEnds {
  atStart: ReferenceWork;
  atEnd: ReferenceWork;
}

/** How the README and the run's last line state it. */
export function referenceLine(work: ReferenceWorkAtEnds): string {
  const one = (w: ReferenceWork) => `${w.ms} ms (${Math.min(...w.trialsMs)}-${Math.max(...w.trialsMs)})`;
  return `reference work ${one(work.atStart)} at the start, ${one(work.atEnd)} at the end (a fixed CPU task, bench/lib/reference-work.ts: median and range of ${work.atStart.trialsMs.length} trials; lower is faster)`;
}
