import { OBJECT_KINDS as STUB_KINDS } from '@ledgersync/stub';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadConfig } from '../../src/config.ts';
import { createErp, type ErpAdapter, trytonOptionsFrom } from '../../src/erp/index.ts';
import { silentLogger } from '../../src/log.ts';
import { OBJECT_KINDS, syncObjects } from '../../src/sync/objects/index.ts';
import { readBooks } from '../support/tryton/books-check.ts';
import { readTrytonBooks, type TrytonBooks } from '../support/tryton/fixture.ts';
import { useTrytonSyncWorld } from '../support/tryton/tryton-world.ts';
import { requireTryton } from '../support/tryton/use-tryton.ts';
import { showAllCompanies } from '../support/tryton/world-setup.ts';

await requireTryton();

/**
 * Three platform entities (USD, EUR, JPY) against one Tryton database with two companies (USD,
 * EUR): TRYTON_COMPANY_BY_ENTITY maps the USD entity to the first company by name and the EUR
 * entity to the second by id, and leaves the JPY entity out. The stub codes every object against
 * the first company's chart; the EUR entity's objects are recoded to the second company's (same
 * codes and names, its own ids), as a bookkeeper coding them in the platform would see them.
 */

type Json = Record<string, unknown>;
const Record_ = z.object({ id: z.number().int(), company: z.number().int() });
/** The stub's kind of each sync type, for its control routes. */
const STUB_KIND_OF: Record<string, string> = {
  TRANSACTION_SYNC: 'transaction',
  REIMBURSEMENT_SYNC: 'reimbursement',
  TRANSFER_SYNC: 'transfer',
  STATEMENT_CREDIT_SYNC: 'cashback',
  BILL_SYNC: 'bill',
  BILL_PAYMENT_SYNC: 'bill',
};
const SELECTIONS = 'accounting_field_selections';

/** Replaces the first company's ids in a coding with the second's, by what each selection codes. */
function recode(
  value: unknown,
  ids: { account: Map<string, string>; option: Map<string, string>; tax: Map<string, string> },
): unknown {
  if (Array.isArray(value)) return value.map((v) => recode(v, ids));
  if (!value || typeof value !== 'object') return value;
  const entry = { ...(value as Json) };
  const category = entry.category_info as Json | undefined;
  const type = (entry.type ?? category?.type) as string | undefined;
  const swap = (map: Map<string, string>, id: unknown) => map.get(String(id)) ?? id;
  if (typeof entry.external_id === 'string' && category) {
    if (type === 'GL_ACCOUNT') entry.external_id = swap(ids.account, entry.external_id);
    if (type === 'TAX_CODE') entry.external_id = swap(ids.tax, entry.external_id);
    if (type === 'OTHER') {
      entry.external_id = swap(ids.option, entry.external_id);
      entry.category_info = { ...category, external_id: swap(ids.option, category.external_id) };
    }
    return entry;
  }
  for (const key of [SELECTIONS, 'line_items']) if (key in entry) entry[key] = recode(entry[key], ids);
  return entry;
}

describe('object sync end to end: two Tryton companies, one per entity (stub + Tryton 6.0)', () => {
  const world = useTrytonSyncWorld();
  let first: TrytonBooks;
  let second: TrytonBooks;
  let erp: ErpAdapter;
  /** Platform entity id → what the test expects: a company id, or the unmapped failure. */
  const entities = { usd: '', eur: '', jpy: '' };
  const entityOf = new Map<string, string>();

  beforeAll(async () => {
    await showAllCompanies(world.tryton);
    first = await readTrytonBooks(world.tryton);
    second = await readTrytonBooks(world.tryton, { company: 'second' });
    await world.seed({
      seed: 23,
      entities: 3,
      transactions: 90,
      reimbursements: 15,
      transfers: 9,
      cashbacks: 9,
      bills: 30,
      foreign_fraction: 0,
    });
    const listed = await world.platform.entities.list().collect();
    const byCurrency = (code: string) => listed.values.find((e) => e.currency === code)!.id;
    Object.assign(entities, { usd: byCurrency('USD'), eur: byCurrency('EUR'), jpy: byCurrency('JPY') });

    const pairs = <T>(from: T[], to: T[]) => new Map(from.map((f, i) => [String(f), String(to[i])]));
    const codes = ['6020', '6040', '6060', '6080'];
    const ids = {
      account: pairs(codes.map(first.accountId), codes.map(second.accountId)),
      option: pairs(
        [first.department.id, ...first.department.options],
        [second.department.id, ...second.department.options],
      ),
      tax: new Map(Object.entries(first.taxIds).map(([name, id]) => [id, second.taxIds[name]!])),
    };
    const state = world.stub.state;
    for (const kind of STUB_KINDS) {
      const count = state.world.stores[kind].count;
      for (let index = 0; index < count; index++) {
        const object = state.objectJson(kind, index) as Json;
        entityOf.set(String(object.id), String(object.entity_id));
        if (object.entity_id !== entities.eur) continue;
        const patch: Json = {};
        for (const key of [SELECTIONS, 'line_items'])
          if (key in object) patch[key] = recode(object[key], ids);
        await world.control('PATCH', `/__stub/objects/${kind}/${object.id}`, patch);
      }
    }

    const { url, database, user, password } = world.tryton;
    const config = loadConfig({
      ERP: 'tryton',
      TRYTON_URL: url,
      TRYTON_DATABASE: database,
      TRYTON_USER: user,
      TRYTON_PASSWORD: password,
      TRYTON_COMPANY_BY_ENTITY: `${entities.usd}=${first.companyName},${entities.eur}=${second.companyId}`,
    });
    erp = createErp({ kind: 'tryton', ...trytonOptionsFrom(config) }, { log: silentLogger });
  }, 600_000);

  async function runAll() {
    const summaries = [];
    for (const kind of OBJECT_KINDS) {
      const deps = {
        sql: world.db.sql,
        erp,
        platform: world.syncPlatform,
        connectionId: world.connectionId,
        log: silentLogger,
      };
      summaries.push(await syncObjects(deps, kind, { slices: 2 }));
    }
    return summaries;
  }

  /** The company a Tryton reference ("account.move,12") is in. */
  async function companyOf(reference: string): Promise<number | null> {
    const [model, id] = reference.split(',');
    if (!id) return null; // a party: shared by the companies
    const [row] = await first.models.searchRead(model!, [['id', '=', Number(id)]], ['company'], Record_);
    return row?.company ?? -1;
  }

  it("each company receives its entity's objects; the unmapped entity's fail naming it and the setting", async () => {
    await runAll();
    const rows = await world.db.sql<
      {
        object_id: string;
        sync_type: string;
        outcome: string;
        reference_id: string | null;
        error_message: string | null;
      }[]
    >`select object_id, sync_type, outcome, reference_id, error_message from sync_ledger where state = 'REPORTED'`;
    const received = { [first.companyId]: 0, [second.companyId]: 0 };
    const unmapped: string[] = [];
    for (const row of rows) {
      const entity = entityOf.get(row.object_id);
      const what = `${row.sync_type} ${row.object_id} (entity ${entity})`;
      if (row.outcome === 'success') {
        expect(entity, what).not.toBe(entities.jpy);
        const company = await companyOf(row.reference_id!);
        if (company === null) continue;
        expect(company, what).toBe(entity === entities.eur ? second.companyId : first.companyId);
        received[company] = (received[company] ?? 0) + 1;
      } else if (entity === entities.jpy && row.error_message?.includes('not mapped')) {
        unmapped.push(row.object_id);
        expect(row.error_message, what).toMatch(
          new RegExp(`^Contact your integrator: Entity ${entities.jpy} is not mapped to a Tryton company\\.`),
        );
        expect(row.error_message, what).toContain('TRYTON_COMPANY_BY_ENTITY');
      }
    }
    expect(received[first.companyId]).toBeGreaterThan(10);
    expect(received[second.companyId]).toBeGreaterThan(10);
    // Transfers and cashbacks need no coding: every one of the unmapped entity reached the ERP.
    const uncoded = rows.filter(
      (r) =>
        ['TRANSFER_SYNC', 'STATEMENT_CREDIT_SYNC'].includes(r.sync_type) &&
        entityOf.get(r.object_id) === entities.jpy,
    );
    expect(uncoded.length).toBeGreaterThan(0);
    for (const r of uncoded) expect(unmapped, `${r.sync_type} ${r.object_id}`).toContain(r.object_id);

    // The platform received those failures as failed_syncs with the same message.
    const [sample] = unmapped;
    const kind = STUB_KIND_OF[rows.find((r) => r.object_id === sample)!.sync_type];
    const state = await world.control<{ state: { failures: unknown[] } }>(
      'GET',
      `/__stub/objects/${kind}/${sample}`,
    );
    expect(JSON.stringify(state.state.failures)).toContain('TRYTON_COMPANY_BY_ENTITY');

    const books = await readBooks(first.models);
    expect(books.duplicates).toEqual([]);
    expect(books.notPosted).toEqual([]);
    expect(books.unbalanced).toEqual([]);
    console.info(
      `tryton companies e2e: ${rows.length} reported; ${received[first.companyId]} into ${first.companyName}, ` +
        `${received[second.companyId]} into ${second.companyName}; ${unmapped.length} failed as unmapped`,
    );
  }, 600_000);

  it('a second run writes nothing new in either company', async () => {
    const before = await readBooks(first.models);
    const summaries = await runAll();
    expect(summaries.reduce((n, s) => n + s.posted, 0)).toBe(0);
    const after = await readBooks(first.models);
    expect([after.moveCount, after.invoiceCount]).toEqual([before.moveCount, before.invoiceCount]);
  }, 600_000);
});
