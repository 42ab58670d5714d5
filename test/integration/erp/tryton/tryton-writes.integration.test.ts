import postgres from 'postgres';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createErp, type ErpAdapter } from '../../../../src/erp/index.ts';
import { collect, objects, referenceOf } from '../../../../src/erp/kit/index.ts';
import { postOne } from '../../../../src/erp/post-one.ts';
import { decimal } from '../../../../src/erp/tryton/codec.ts';
import { recordKey } from '../../../../src/erp/tryton/keys.ts';
import { TrytonErp } from '../../../../src/erp/tryton/tryton-erp.ts';
import { readBooks } from '../../../support/tryton/books-check.ts';
import { readTrytonBooks, type TrytonBooks } from '../../../support/tryton/fixture.ts';
import { requireTryton, useTryton } from '../../../support/tryton/use-tryton.ts';

await requireTryton();

const Invoice = z.object({
  id: z.number().int(),
  state: z.string(),
  total_amount: z.object({ decimal: z.string() }),
});
const Session = z.object({ id: z.number().int() });

describe('Tryton adapter: what Tryton holds after writes', () => {
  const tryton = useTryton();
  let books: TrytonBooks;
  let erp: ErpAdapter;
  let holder: TrytonErp;

  beforeAll(async () => {
    books = await readTrytonBooks(tryton.connection);
    erp = createErp({ kind: 'tryton', ...tryton.connection });
    holder = new TrytonErp(tryton.connection);
  });
  /** What Tryton holds for one object id: the adapter's own read, outside the ERP contract. */
  const held = async (objectId: string) =>
    (await holder.lookupMany([{ kind: 'card_transaction', objectId }]))[0];

  it('a bill becomes a posted supplier invoice with the platform total, and its payment marks it paid', async () => {
    const o = objects(books.fixture);
    const bill = o.bill({
      totalMinor: 10_001,
      lines: [o.line(6_001, { taxCodeId: books.fixture.taxCodeId }), o.line(4_000)],
    });
    const posted = await postOne(erp, bill);
    const id = Number(referenceOf(posted).split(',')[1]);
    const read = () =>
      books.models.searchRead('account.invoice', [['id', '=', id]], ['state', 'total_amount'], Invoice);
    expect((await read())[0]).toMatchObject({ state: 'posted', total_amount: { decimal: '100.01' } });
    referenceOf(await postOne(erp, o.payment(bill.objectId, { totalMinor: 10_001 })));
    expect((await read())[0]?.state).toBe('paid');
    const report = await readBooks(books.models);
    expect(report.unbalanced).toEqual([]);
    expect(report.notPosted).toEqual([]);
  });

  it('finishes a move an interrupted write left in draft instead of making a second one', async () => {
    const card = objects(books.fixture).card();
    const key = recordKey('card_transaction', card.objectId);
    const [period] = await books.models.searchRead(
      'account.period',
      [['name', '=', card.date.slice(0, 7)]],
      ['id'],
      Session,
    );
    const [journal] = await books.models.searchRead(
      'account.journal',
      [['code', '=', 'SVC']],
      ['id'],
      Session,
    );
    const amount = decimal('42.50');
    const zero = decimal('0');
    const [draft] = await books.models.create('account.move', [
      {
        journal: journal!.id,
        period: period!.id,
        date: { __class__: 'date', year: 2025, month: 2, day: 10 },
        description: key.text,
        lines: [
          [
            'create',
            [
              { account: Number(books.accountId('6020')), debit: amount, credit: zero },
              { account: Number(books.accountId('2100')), debit: zero, credit: amount },
            ],
          ],
        ],
      },
    ]);
    expect(await held(card.objectId)).toMatchObject({ found: false });
    const result = await postOne(erp, card);
    expect(referenceOf(result)).toBe(`account.move,${draft}`);
    expect(result.ok && result.replayed).toBe(false);
    expect(await held(card.objectId)).toMatchObject({ found: true });
    const report = await readBooks(books.models);
    expect(report.records.get(key.text)).toEqual([`account.move,${draft}`]);
    expect(report.notPosted).toEqual([]);
  });

  it('logs in again when Tryton dropped the session', async () => {
    referenceOf(await postOne(erp, objects(books.fixture).card()));
    // As after 5 idle minutes: Tryton no longer knows the adapter's session.
    const url = new URL(tryton.databaseUrl);
    url.pathname = `/${tryton.connection.database}`;
    const sql = postgres(url.toString(), { max: 1, onnotice: () => {} });
    try {
      await sql`delete from ir_session`;
    } finally {
      await sql.end();
    }
    expect(referenceOf(await postOne(erp, objects(books.fixture).card()))).toBeTruthy();
  });

  it('answers a refused login as needs_integrator, without the password in any message', async () => {
    const wrong = createErp({ kind: 'tryton', ...tryton.connection, password: 'not-the-password-123' });
    const result = await postOne(wrong, objects(books.fixture).card());
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatchObject({ category: 'needs_integrator', code: 'ERP_LOGIN_REFUSED' });
    expect(JSON.stringify(result)).not.toContain('not-the-password-123');
    await expect(collect(wrong.glAccounts())).rejects.toMatchObject({ category: 'needs_integrator' });
  });

  it('answers a Tryton user without accounting rights as needs_integrator', async () => {
    const login = `clerk${Date.now()}`;
    const password = 'clerk-password-2024';
    const [company] = await books.models.searchRead('company.company', [], ['id'], Session);
    await books.models.create('res.user', [
      { login, name: 'Clerk', password, companies: [['add', [company!.id]]], company: company!.id },
    ]);
    const clerk = createErp({ kind: 'tryton', ...tryton.connection, user: login, password });
    const result = await postOne(clerk, objects(books.fixture).card());
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.error).toMatchObject({ category: 'needs_integrator', code: 'ERP_ACCESS_DENIED' });
  });
});
