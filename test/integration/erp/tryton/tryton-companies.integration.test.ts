import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadConfig } from '../../../../src/config.ts';
import { createErp, type ErpAdapter } from '../../../../src/erp/index.ts';
import { failureOf, objects, referenceOf } from '../../../../src/erp/kit/index.ts';
import { postOne } from '../../../../src/erp/post-one.ts';
import { recordKey } from '../../../../src/erp/tryton/keys.ts';
import { trytonOptionsFrom } from '../../../../src/erp/tryton/options.ts';
import { readTrytonBooks, type TrytonBooks } from '../../../support/tryton/fixture.ts';
import { requireTryton, useTryton } from '../../../support/tryton/use-tryton.ts';
import { showAllCompanies } from '../../../support/tryton/world-setup.ts';

await requireTryton();

const Move = z.object({ id: z.number().int(), company: z.number().int(), journal: z.number().int() });
const Line = z.object({ account: z.number().int() });
const Invoice = z.object({ id: z.number().int(), company: z.number().int(), state: z.string() });

const US = 'ent-us';
const EU = 'ent-eu';

describe('Tryton adapter: several companies in one database (6.0)', () => {
  const tryton = useTryton();
  let first: TrytonBooks;
  let second: TrytonBooks;

  /** The adapter as the worker builds it from its environment. */
  const adapterFor = (companyByEntity: string | undefined): ErpAdapter => {
    const { url, database, user, password } = tryton.connection;
    const env: Record<string, string> = {
      ERP: 'tryton',
      TRYTON_URL: url,
      TRYTON_DATABASE: database,
      TRYTON_USER: user,
      TRYTON_PASSWORD: password,
    };
    if (companyByEntity) env.TRYTON_COMPANY_BY_ENTITY = companyByEntity;
    return createErp({ kind: 'tryton', ...trytonOptionsFrom(loadConfig(env)) });
  };
  let erp: ErpAdapter;

  beforeAll(async () => {
    await showAllCompanies(tryton.connection);
    first = await readTrytonBooks(tryton.connection);
    second = await readTrytonBooks(tryton.connection, { company: 'second' });
    // By id for one company, by name for the other.
    erp = adapterFor(`${US}=${first.companyId},${EU}=${second.companyName}`);
  });

  const moveOf = async (reference: string) => {
    const id = Number(reference.split(',')[1]);
    const [move] = await first.models.searchRead(
      'account.move',
      [['id', '=', id]],
      ['company', 'journal'],
      Move,
    );
    const lines = await first.models.searchRead('account.move.line', [['move', '=', id]], ['account'], Line);
    return { ...move!, accounts: lines.map((l) => String(l.account)).sort() };
  };

  it("posts each entity's objects into the company it maps to, with that company's accounts and currency", async () => {
    const us = objects({ ...first.fixture, entityId: US });
    const eu = objects({ ...second.fixture, entityId: EU });
    const [usCard, euCard, euTransfer] = await erp.postMany([us.card(), eu.card(), eu.transfer()]);
    const usMove = await moveOf(referenceOf(usCard!));
    const euMove = await moveOf(referenceOf(euCard!));
    expect(usMove.company).toBe(first.companyId);
    expect(euMove.company).toBe(second.companyId);
    expect(euMove.accounts).toContain(second.accountId('2100'));
    expect(euMove.accounts).not.toContain(first.accountId('2100'));
    const transfer = await moveOf(referenceOf(euTransfer!));
    expect(transfer.accounts).toEqual([second.accountId('1010'), second.accountId('2100')].sort());

    const bill = eu.bill();
    const invoiceId = Number(referenceOf(await postOne(erp, bill)).split(',')[1]);
    referenceOf(await postOne(erp, eu.payment(bill.objectId, { totalMinor: bill.totalMinor })));
    const [invoice] = await first.models.searchRead(
      'account.invoice',
      [['id', '=', invoiceId]],
      ['company', 'state'],
      Invoice,
    );
    expect(invoice).toMatchObject({ company: second.companyId, state: 'paid' });
  });

  it('fails an object of an entity the mapping does not list, naming the entity and the setting; writes nothing', async () => {
    const card = objects({ ...first.fixture, entityId: 'ent-jp' }).card();
    const [result, other] = await erp.postMany([card, objects({ ...first.fixture, entityId: US }).card()]);
    const error = failureOf(result!);
    expect(error).toMatchObject({ category: 'needs_integrator', code: 'ENTITY_UNMAPPED' });
    expect(error.message).toMatch(
      /^Contact your integrator: Entity ent-jp is not mapped to a Tryton company/,
    );
    expect(error.message).toContain('TRYTON_COMPANY_BY_ENTITY');
    expect(other!.ok).toBe(true);
    // Nothing was written: once mapped, the same object id is a first write, not a replay.
    const mapped = await postOne(erp, { ...card, entityId: US });
    expect(mapped).toMatchObject({ ok: true, replayed: false });
  });

  it('fails the objects of an entity mapped to a company Tryton does not have, naming the setting', async () => {
    const wrong = adapterFor(`${US}=${first.companyId},${EU}=Nonexistent Company Ltd`);
    const error = failureOf(await postOne(wrong, objects({ ...second.fixture, entityId: EU }).card()));
    expect(error).toMatchObject({ category: 'needs_integrator', code: 'COMPANY_UNKNOWN' });
    expect(error.message).toContain('"Nonexistent Company Ltd"');
    expect(error.message).toContain('TRYTON_COMPANY_BY_ENTITY');
  });

  it("refuses a line coded to the other company's account, naming the entity's company", async () => {
    const card = objects({ ...second.fixture, entityId: EU }).card();
    card.lines = [{ ...card.lines[0]!, glAccountId: first.accountId('6020') }];
    const error = failureOf(await postOne(erp, card));
    expect(error).toMatchObject({ category: 'user_actionable', code: 'ACCOUNT_UNKNOWN' });
    expect(error.message).toContain(`company ${second.companyName}`);
  });

  it('finds an object in the company it was posted to after its entity moved to another: replayed, never posted twice', async () => {
    const card = objects({ ...second.fixture, entityId: EU }).card();
    const posted = referenceOf(await postOne(erp, card));
    const moved = adapterFor(`${EU}=${first.companyId},ent-other=${second.companyId}`);
    const again = await postOne(moved, card);
    expect(again).toMatchObject({ ok: true, referenceId: posted, replayed: true });
    const key = recordKey('card_transaction', card.objectId).text;
    const copies = await first.models.searchRead(
      'account.move',
      [['description', '=', key]],
      ['company', 'journal'],
      Move,
    );
    expect(copies).toHaveLength(1);
  });

  it("mirrors both companies' charts, each name followed by its company's", async () => {
    const names = new Map<string, string>();
    for await (const a of erp.glAccounts()) names.set(a.id, a.name);
    expect(names.get(first.accountId('6020'))).toBe(`Office Supplies (${first.companyName})`);
    expect(names.get(second.accountId('6020'))).toBe(`Office Supplies (${second.companyName})`);
    const fields = [];
    for await (const f of erp.customFields()) fields.push(f.name);
    expect(fields.sort()).toEqual(
      [`Department (${first.companyName})`, `Department (${second.companyName})`].sort(),
    );
    const options = [];
    for await (const o of erp.fieldOptions(second.department.id)) options.push(o.id);
    expect(options.sort()).toEqual([...second.department.options].sort());
  });

  it('with one company and no mapping, posts to the current company only, as before', async () => {
    const single = adapterFor(undefined);
    const names = [];
    for await (const a of single.glAccounts()) names.push(a.name);
    expect(names).toContain('Office Supplies');
    expect(names.some((n) => n.includes(second.companyName))).toBe(false);
    // The other company's accounts, in the current company's currency.
    const card = objects({ ...second.fixture, currency: first.fixture.currency }).card();
    const error = failureOf(await postOne(single, card));
    expect(error.code).toBe('ACCOUNT_UNKNOWN');
    expect(error.message).toContain('is not in Tryton');
  });

  it("says to set the user's Company Filter to All when Tryton shows it its current company only", async () => {
    const m = first.models;
    await m.write('res.user', [await m.rpc.userId()], { company_filter: 'one' });
    try {
      const narrow = adapterFor(`${US}=${first.companyId},${EU}=${second.companyId}`);
      const error = failureOf(await postOne(narrow, objects({ ...second.fixture, entityId: EU }).card()));
      expect(error).toMatchObject({ category: 'needs_integrator', code: 'COMPANY_FILTER_CURRENT' });
      expect(error.message).toContain('Company Filter to All');
      const usCard = await postOne(narrow, objects({ ...first.fixture, entityId: US }).card());
      expect(usCard.ok).toBe(true);
    } finally {
      await m.write('res.user', [await m.rpc.userId()], { company_filter: 'all' });
    }
  });
});
