import postgres, { type Sql } from 'postgres';
import { z } from 'zod';
import { createErp, postOne, type TrytonConnection, TrytonModels, TrytonRpc } from '../../src/erp/index.ts';
import { objects } from '../../src/erp/kit/index.ts';
import {
  ADMIN_PASSWORD,
  ADMIN_USER,
  cloneTestDatabase,
  templateName,
} from '../../test/support/tryton/databases.ts';
import { readTrytonBooks } from '../../test/support/tryton/fixture.ts';

/**
 * Tryton books at a real company's size for the lookup measurements: the test books
 * (test/support/tryton) grown to a chart of N postable accounts, written through JSON-RPC as a
 * bookkeeper's import would, and a history of M moves, of which a fifth carry the sync's
 * references (svc:…) in the SVC journal and the rest other journals' descriptions, plus supplier
 * invoices and party identifiers in proportion. The history is copied in SQL from one move made
 * through JSON-RPC (making 100,000 moves one RPC at a time would take an hour); lookups read only
 * the move, invoice and identifier tables, which is what it fills. The grown database is kept as a
 * template (marked with a comment), so the next run starts from a clone in seconds.
 */

export interface LargeBooksSize {
  accounts: number;
  moves: number;
}

const Row = z.object({ id: z.number().int() });
const READY = 'ledgersync tryton lookup-cost books ready';
/** Bump when what grow() writes changes. */
const VERSION = 1;

/** The sync's references in the history: svc:card_transaction:hist-<n>. */
export const historyKey = (n: number) => `svc:card_transaction:hist-${n}`;
const HISTORY_SHARE_SVC = 5;

function adminUrl(databaseUrl: string, database: string): string {
  const url = new URL(databaseUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

async function one(m: TrytonModels, model: string, domain: unknown[]): Promise<number> {
  const [row] = await m.searchRead(model, domain, ['id'], Row, { limit: 1 });
  if (!row) throw new Error(`no ${model} matches ${JSON.stringify(domain)}`);
  return row.id;
}

async function growChart(m: TrytonModels, accounts: number, say: (line: string) => void): Promise<void> {
  const expense = await one(m, 'account.account.type', [['expense', '=', true]]);
  const root = await one(m, 'account.account', [['parent', '=', null]]);
  const company = await one(m, 'company.company', []);
  const existing = await m.searchRead('account.account', [['type', '!=', null]], ['id'], Row);
  const missing = accounts - existing.length;
  // Chunks of at least a quarter of the table: Tryton then rebuilds the account tree once per
  // chunk instead of shifting it for every new account.
  const chunk = 2_500;
  for (let done = 0; done < missing; done += chunk) {
    const size = Math.min(chunk, missing - done);
    await m.create(
      'account.account',
      Array.from({ length: size }, (_, i) => {
        const n = done + i;
        return {
          company,
          parent: root,
          code: String(700000 + n),
          name: `Cost centre account ${String(n).padStart(5, '0')}`,
          type: expense,
        };
      }),
    );
    say(`chart: ${existing.length + done + size} postable accounts`);
  }
}

/**
 * The rows the history copies: a move in SVC and one in the cash journal made through JSON-RPC,
 * and a posted supplier invoice and a created vendor made by the adapter itself.
 */
async function seedRows(
  m: TrytonModels,
  connection: TrytonConnection,
): Promise<{ svc: number; other: number }> {
  const books = await readTrytonBooks(connection);
  const erp = createErp({ kind: 'tryton', ...connection });
  const o = objects(books.fixture);
  const results = [
    await postOne(erp, o.bill()),
    await erp.createVendor({ kind: 'vendor', objectId: 'hist-seed', name: 'History Seed Supplier' }),
  ];
  await erp.close();
  const failed = results.find((r) => !r.ok);
  if (failed && !failed.ok) throw new Error(`seeding the history: ${failed.error.message}`);
  const journalOf = (code: string) => one(m, 'account.journal', [['code', '=', code]]);
  const [svcJournal, otherJournal] = await Promise.all([journalOf('SVC'), journalOf('CASH')]);
  const period = await one(m, 'account.period', [
    ['name', '=', '2025-02'],
    ['type', '=', 'standard'],
  ]);
  const date = { __class__: 'date', year: 2025, month: 2, day: 10 };
  const ids = await m.create(
    'account.move',
    [svcJournal, otherJournal].map((journal, i) => ({
      journal,
      period,
      date,
      description: i === 0 ? historyKey(-1) : 'Bank statement line',
    })),
  );
  return { svc: ids[0]!, other: ids[1]! };
}

async function columns(sql: Sql, table: string): Promise<string[]> {
  const rows = await sql<{ name: string }[]>`
    select column_name as name from information_schema.columns
    where table_name = ${table} and table_schema = 'public' and column_name <> 'id'
    order by ordinal_position`;
  return rows.map((r) => r.name);
}

/** `insert … select` copying row `seed` of `table` count times, some columns replaced. */
async function copyRows(
  sql: Sql,
  table: string,
  seed: number,
  count: number,
  replace: Record<string, string>,
): Promise<void> {
  const cols = await columns(sql, table);
  const select = cols.map((c) => replace[c] ?? `s."${c}"`).join(', ');
  await sql.unsafe(
    `insert into "${table}" (${cols.map((c) => `"${c}"`).join(', ')})
     select ${select} from "${table}" s, generate_series(1, ${count}) g where s.id = ${seed}`,
  );
}

async function growHistory(sql: Sql, seeds: { svc: number; other: number }, moves: number): Promise<void> {
  const svc = Math.floor(moves / HISTORY_SHARE_SVC);
  // Dates spread over 2023–2026 by the row number; each row in its company's period of that date.
  const date = `date '2023-01-01' + ((g * 7) % 1460)`;
  const period = `(select p.id from account_period p join account_fiscalyear f on f.id = p.fiscalyear
      where f.company = s.company and p.type = 'standard'
      and p.start_date <= ${date} and ${date} <= p.end_date limit 1)`;
  await copyRows(sql, 'account_move', seeds.svc, svc, {
    description: `'svc:card_transaction:hist-' || g`,
    number: `'H' || g`,
    date,
    period,
    state: `'posted'`,
  });
  await copyRows(sql, 'account_move', seeds.other, moves - svc, {
    description: `'Bank statement line ' || g`,
    number: `'B' || g`,
    date,
    period,
    state: `'posted'`,
  });
  const [invoice] = await sql<{ id: number }[]>`select id from account_invoice order by id limit 1`;
  if (invoice) {
    await copyRows(sql, 'account_invoice', invoice.id, Math.floor(moves / 10), {
      description: `'svc:bill:hist-' || g`,
      number: `'HI' || g`,
    });
  }
  const [identifier] = await sql<{ id: number }[]>`select id from party_identifier order by id limit 1`;
  if (identifier) {
    await copyRows(sql, 'party_identifier', identifier.id, Math.floor(moves / 10), {
      code: `'svc:vendor:hist-' || g`,
    });
  }
  await sql.unsafe('analyze');
}

/** What docs/tryton.md suggests a database administrator adds for very large books. */
const DESCRIPTION_INDEXES = [
  'create index if not exists ledgersync_account_move_description on account_move (description)',
  'create index if not exists ledgersync_account_invoice_description on account_invoice (description)',
  'create index if not exists ledgersync_party_identifier_code on party_identifier (code)',
  'analyze account_move, account_invoice, party_identifier',
];

async function ready(admin: Sql, name: string): Promise<boolean> {
  const rows =
    await admin`select shobj_description(oid, 'pg_database') as comment from pg_database where datname = ${name}`;
  return rows[0]?.comment === READY;
}

/**
 * A database for one measurement run, cloned from the grown template (built first when missing):
 * returns the connection to it and a function that drops it.
 */
export async function largeBooks(
  databaseUrl: string,
  serverUrl: string,
  size: LargeBooksSize,
  say: (line: string) => void,
  options: { descriptionIndex?: boolean } = {},
): Promise<{ connection: TrytonConnection; drop: () => Promise<void> }> {
  const admin = postgres(adminUrl(databaseUrl, 'postgres'), { max: 1, onnotice: () => {} });
  // Named after the test books' template too: when those change, the grown books are rebuilt.
  const base = templateName().replace('tryton_tpl_', '');
  const template = `tryton_lookup_${base}_v${VERSION}_${size.accounts}_${size.moves}`;
  const connectionOf = (database: string): TrytonConnection => ({
    url: serverUrl,
    database,
    user: ADMIN_USER,
    password: ADMIN_PASSWORD,
  });
  try {
    if (!(await ready(admin, template))) {
      say(`building ${template} (once; kept for later runs)`);
      await admin.unsafe(`drop database if exists ${template} with (force)`);
      await cloneTestDatabase(databaseUrl, serverUrl, template);
      const m = new TrytonModels(new TrytonRpc(connectionOf(template)));
      await growChart(m, size.accounts, say);
      const seeds = await seedRows(m, connectionOf(template));
      const sql = postgres(adminUrl(databaseUrl, template), { max: 1, onnotice: () => {} });
      try {
        await growHistory(sql, seeds, size.moves);
      } finally {
        await sql.end();
      }
      say(`history: ${size.moves} moves`);
      await admin`select pg_terminate_backend(pid) from pg_stat_activity where datname = ${template}`;
      await admin.unsafe(`comment on database ${template} is '${READY}'`);
    }
    const run = `tryton_lookup_run_${process.pid}`;
    await admin.unsafe(`drop database if exists ${run} with (force)`);
    await admin`select pg_terminate_backend(pid) from pg_stat_activity where datname = ${template}`;
    await admin.unsafe(`create database ${run} template ${template}`);
    if (options.descriptionIndex) {
      const sql = postgres(adminUrl(databaseUrl, run), { max: 1, onnotice: () => {} });
      try {
        for (const statement of DESCRIPTION_INDEXES) await sql.unsafe(statement);
      } finally {
        await sql.end();
      }
    }
    return {
      connection: connectionOf(run),
      drop: async () => {
        const a = postgres(adminUrl(databaseUrl, 'postgres'), { max: 1, onnotice: () => {} });
        try {
          await a.unsafe(`drop database if exists ${run} with (force)`);
        } finally {
          await a.end();
        }
      },
    };
  } finally {
    await admin.end();
  }
}
