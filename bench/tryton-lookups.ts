/**
 * What the Tryton adapter's lookups cost on books of a real company's size:
 *
 *   npx tsx bench/tryton-lookups.ts [--accounts 10000] [--moves 100000] [--batch 100] [--repeat 5]
 *                                   [--description-index] [--json]
 *
 * Grows the test books (test/support/tryton) to a chart of --accounts postable accounts and a
 * history of --moves moves (once; kept as a template database for later runs), then measures on
 * a fresh clone, through the adapter as the worker uses it: the look-up of a batch of objects
 * Tryton does not hold yet (every new object goes through it before it is written), of a batch it
 * does hold, the context a batch of writes loads, a batch of writes itself, and the chart read.
 * For each: milliseconds (median of --repeat) and JSON-RPC calls, counted on the wire; and for
 * the idempotency look-ups the plan PostgreSQL chooses for the query Tryton sends.
 * --description-index first adds the indexes docs/tryton.md suggests for very large books.
 *
 * Needs what the Tryton tests need (trytond from Debian's packages, installed when missing) and
 * uses the tests' PostgreSQL (DATABASE_URL, else the embedded one in .ledgersync/test-pg).
 * Prints the figures on stdout (--json: one JSON document), progress on stderr.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import postgres from 'postgres';
import { z } from 'zod';
import type { CardTransactionInput } from '../src/erp/index.ts';
import { createErp, type ErpAdapter, TrytonErp } from '../src/erp/index.ts';
import { objects } from '../src/erp/kit/index.ts';
import { startEmbeddedPostgres } from '../src/infra/index.ts';
import { silentLogger } from '../src/log.ts';
import { readTrytonBooks } from '../test/support/tryton/fixture.ts';
import { ensureTrytonInstalled } from '../test/support/tryton/install.ts';
import { ensureTrytonServer } from '../test/support/tryton/server.ts';
import { percentile } from './lib/percentile.ts';
import { historyKey, largeBooks } from './lib/tryton-large-books.ts';

const { values } = parseArgs({
  options: {
    accounts: { type: 'string', default: '10000' },
    moves: { type: 'string', default: '100000' },
    batch: { type: 'string', default: '100' },
    repeat: { type: 'string', default: '5' },
    'description-index': { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  },
  strict: true,
});
const Count = z.coerce.number().int().min(1).max(2_000_000);
const size = { accounts: Count.parse(values.accounts), moves: Count.parse(values.moves) };
const batch = Count.parse(values.batch);
const repeat = Count.parse(values.repeat);
const say = (line: string) => process.stderr.write(`tryton-lookups: ${line}\n`);

/** Counts the JSON-RPC calls the adapter makes, by method, by wrapping fetch. */
class WireCounter {
  calls = new Map<string, number>();
  private readonly original = globalThis.fetch;

  install(endpointPrefix: string): void {
    const original = this.original;
    globalThis.fetch = async (input, init) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      if (url.startsWith(endpointPrefix) && typeof init?.body === 'string') {
        const method = (JSON.parse(init.body) as { method?: string }).method ?? '?';
        this.calls.set(method, (this.calls.get(method) ?? 0) + 1);
      }
      return original(input, init);
    };
  }
  reset(): void {
    this.calls.clear();
  }
  total(): number {
    return [...this.calls.values()].reduce((a, b) => a + b, 0);
  }
  restore(): void {
    globalThis.fetch = this.original;
  }
}

interface Measured {
  what: string;
  medianMs: number;
  perObjectMs: number | null;
  rpcCalls: number;
  byMethod: Record<string, number>;
}

async function measure(
  counter: WireCounter,
  what: string,
  objectsPerRun: number | null,
  run: (i: number) => Promise<void>,
): Promise<Measured> {
  const times: number[] = [];
  let calls = new Map<string, number>();
  // One unmeasured run first: the login and the user's preferences are the adapter's, once.
  await run(-1);
  for (let i = 0; i < repeat; i++) {
    counter.reset();
    const t0 = performance.now();
    await run(i);
    times.push(performance.now() - t0);
    calls = new Map(counter.calls);
  }
  const ms = percentile(times, 50);
  return {
    what,
    medianMs: Math.round(ms * 10) / 10,
    perObjectMs: objectsPerRun ? Math.round((ms / objectsPerRun) * 100) / 100 : null,
    rpcCalls: [...calls.values()].reduce((a, b) => a + b, 0),
    byMethod: Object.fromEntries(calls),
  };
}

interface Plan {
  query: string;
  node: string;
  index: string | null;
  rowsScanned: number;
  ms: number;
}

/** The plan PostgreSQL runs for the shape of query Tryton sends for each idempotency look-up. */
async function plans(databaseUrl: string, database: string, keys: string[]): Promise<Plan[]> {
  const url = new URL(databaseUrl);
  url.pathname = `/${database}`;
  const sql = postgres(url.toString(), { max: 1, onnotice: () => {} });
  const list = keys.map((k) => `'${k.replaceAll("'", "''")}'`).join(', ');
  const queries = [
    `select id from account_move where description in (${list})`,
    `select id from account_invoice where type = 'in' and description in (${list})`,
    `select id from party_identifier where code in (${list})`,
  ];
  const out: Plan[] = [];
  try {
    for (const query of queries) {
      const [row] = await sql.unsafe(`explain (analyze, format json) ${query}`);
      const plan = (
        row as unknown as { 'QUERY PLAN': [{ Plan: Record<string, unknown>; 'Execution Time': number }] }
      )['QUERY PLAN'][0];
      // The scan is the leaf (under a Gather when PostgreSQL scans in parallel); rows are per loop.
      type Node = Record<string, unknown> & { Plans?: Node[] };
      let leaf = plan.Plan as Node;
      while (leaf.Plans?.length) leaf = leaf.Plans[0]!;
      const loops = Number(leaf['Actual Loops'] ?? 1);
      const read = (Number(leaf['Actual Rows'] ?? 0) + Number(leaf['Rows Removed by Filter'] ?? 0)) * loops;
      out.push({
        query: query.replace(/\(.*\)/, '(…)'),
        node: String(leaf['Node Type']),
        index: (leaf['Index Name'] as string | undefined) ?? null,
        rowsScanned: read,
        ms: Math.round(plan['Execution Time'] * 100) / 100,
      });
    }
  } finally {
    await sql.end();
  }
  return out;
}

const databaseUrl =
  process.env.DATABASE_URL ??
  (await startEmbeddedPostgres(resolve('.ledgersync', 'test-pg'), silentLogger)).url;
const installed = await ensureTrytonInstalled();
if (!installed.ok) {
  process.stderr.write(`tryton-lookups: Tryton is not available: ${installed.reason}\n`);
  process.exit(69);
}
const serverUrl = await ensureTrytonServer(databaseUrl);
const t0 = performance.now();
const descriptionIndex = values['description-index'];
const books = await largeBooks(databaseUrl, serverUrl, size, say, { descriptionIndex });
say(`books ready in ${Math.round((performance.now() - t0) / 1000)} s`);

const counter = new WireCounter();
counter.install(serverUrl);
let erp: ErpAdapter | undefined;
try {
  const fixture = (await readTrytonBooks(books.connection)).fixture;
  const m = (await readTrytonBooks(books.connection)).models;
  const Account = z.object({ id: z.number().int() });
  const chart = await m.searchRead('account.account', [['code', 'like', '7%']], ['id'], Account);
  erp = createErp({ kind: 'tryton', ...books.connection }, { log: silentLogger });
  const adapter = erp;
  // The look-up postMany makes before writing, read on its own (it is not part of the ERP contract).
  const holder = new TrytonErp({ ...books.connection, log: silentLogger });
  const o = objects(fixture);
  const card = (i: number, n: number): CardTransactionInput =>
    o.card({
      lines: [
        o.line(4250, { glAccountId: String(chart[Math.abs(i * 7919 + n * 104729) % chart.length]!.id) }),
      ],
    });
  const results: Measured[] = [];
  results.push(
    await measure(counter, `look up ${batch} objects Tryton does not hold`, batch, async (i) => {
      const keys = Array.from({ length: batch }, (_, n) => ({
        kind: 'card_transaction' as const,
        objectId: `absent-${i}-${n}-${Date.now()}`,
      }));
      await holder.lookupMany(keys);
    }),
  );
  const svcInHistory = Math.floor(size.moves / 5);
  results.push(
    await measure(counter, `look up ${batch} objects Tryton holds`, batch, async (i) => {
      const keys = Array.from({ length: batch }, (_, n) => ({
        kind: 'card_transaction' as const,
        objectId: historyKey(1 + (((i + 1) * 9973 + n * 31) % svcInHistory)).split(':')[2]!,
      }));
      const found = await holder.lookupMany(keys);
      if (found.some((f) => !f.found)) throw new Error('a history object was not found');
    }),
  );
  results.push(
    await measure(
      counter,
      `post again ${batch} objects Tryton holds (look-up and context, nothing written)`,
      batch,
      async (i) => {
        const items = Array.from({ length: batch }, (_, n) => card(i, n)).map((c, n) => ({
          ...c,
          objectId: historyKey(1 + (((i + 7) * 7919 + n * 37) % svcInHistory)).split(':')[2]!,
        }));
        const out = await adapter.postMany(items);
        if (out.some((r) => !r.ok || !r.replayed)) throw new Error('a held object was not replayed');
      },
    ),
  );
  const writes = Math.min(batch, 50);
  results.push(
    await measure(
      counter,
      `write ${writes} card transactions (look-up, context, create, post)`,
      writes,
      async (i) => {
        const items = Array.from({ length: writes }, (_, n) => card(i + 2, n));
        const out = await adapter.postMany(items);
        const failed = out.find((r) => !r.ok);
        if (failed && !failed.ok) throw new Error(`write refused: ${failed.error.message}`);
      },
    ),
  );
  results.push(
    await measure(counter, `read the chart (${size.accounts} accounts)`, null, async () => {
      let n = 0;
      for await (const _ of adapter.glAccounts()) n++;
      if (n < size.accounts) throw new Error(`chart read ${n} accounts`);
    }),
  );
  const keys = Array.from({ length: batch }, (_, n) => `svc:card_transaction:absent-${n}`);
  const report = {
    measuredAt: new Date().toISOString(),
    size,
    descriptionIndex,
    batch,
    repeat,
    results,
    postgresPlans: await plans(databaseUrl, books.connection.database, keys),
  };
  if (values.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else {
    const indexed = descriptionIndex ? ', descriptions indexed' : '';
    process.stdout.write(
      `Tryton lookups, ${size.accounts} accounts, ${size.moves} moves in the history${indexed} (median of ${repeat}):\n`,
    );
    for (const r of results) {
      const per = r.perObjectMs === null ? '' : ` (${r.perObjectMs} ms per object)`;
      process.stdout.write(`  ${r.what}: ${r.medianMs} ms${per}, ${r.rpcCalls} JSON-RPC calls\n`);
      process.stdout.write(`      ${JSON.stringify(r.byMethod)}\n`);
    }
    process.stdout.write('PostgreSQL plans of the idempotency look-ups (100 keys):\n');
    for (const p of report.postgresPlans) {
      process.stdout.write(
        `  ${p.query}: ${p.node}${p.index ? ` on ${p.index}` : ''}, ${p.rowsScanned} rows read, ${p.ms} ms\n`,
      );
    }
  }
} finally {
  counter.restore();
  await erp?.close();
  await books.drop();
}
process.exit(0);
