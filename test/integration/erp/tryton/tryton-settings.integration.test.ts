import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadConfig } from '../../../../src/config.ts';
import { createErp, type ErpAdapter } from '../../../../src/erp/index.ts';
import { failureOf, objects, referenceOf } from '../../../../src/erp/kit/index.ts';
import { postOne } from '../../../../src/erp/post-one.ts';
import type { TrytonModels } from '../../../../src/erp/tryton/models.ts';
import { trytonOptionsFrom } from '../../../../src/erp/tryton/options.ts';
import { readTrytonBooks, type TrytonBooks } from '../../../support/tryton/fixture.ts';
import { requireTryton, useTryton } from '../../../support/tryton/use-tryton.ts';

await requireTryton();

const Row = z.object({ id: z.number().int() });
const DataRow = z.object({ db_id: z.number().int() });
const Move = z.object({ id: z.number().int(), journal: z.number().int() });
const Line = z.object({
  account: z.number().int(),
  credit: z.object({ decimal: z.string() }),
  debit: z.object({ decimal: z.string() }),
});
const Invoice = z.object({ id: z.number().int(), account: z.number().int(), state: z.string() });

async function one(m: TrytonModels, model: string, domain: unknown[]): Promise<number> {
  const [row] = await m.searchRead(model, domain, ['id'], Row, { limit: 1 });
  if (!row) throw new Error(`no ${model} matches ${JSON.stringify(domain)}`);
  return row.id;
}

/** The type Tryton's minimal chart template gives a kind of account, in the test company. */
async function typeOf(m: TrytonModels, company: number, fsId: string): Promise<number> {
  const [data] = await m.searchRead(
    'ir.model.data',
    [
      ['module', '=', 'account'],
      ['fs_id', '=', fsId],
    ],
    ['db_id'],
    DataRow,
  );
  return one(m, 'account.account.type', [
    ['company', '=', company],
    ['template', '=', data!.db_id],
  ]);
}

describe('Tryton adapter: journal and posting-default codes from the settings (6.0)', () => {
  const tryton = useTryton();
  let books: TrytonBooks;

  const adapterWith = (settings: Record<string, string>): ErpAdapter => {
    const { url, database, user, password } = tryton.connection;
    const env = {
      ERP: 'tryton',
      TRYTON_URL: url,
      TRYTON_DATABASE: database,
      TRYTON_USER: user,
      TRYTON_PASSWORD: password,
      ...settings,
    };
    return createErp({ kind: 'tryton', ...trytonOptionsFrom(loadConfig(env)) });
  };

  /** A second journal and accounts under other codes, as another customer's books would name them. */
  beforeAll(async () => {
    books = await readTrytonBooks(tryton.connection);
    const m = books.models;
    const company = books.companyId;
    const journalType = await one(m, 'ir.sequence.type', [['name', '=', 'Account Journal']]);
    const [sequence] = await m.create('ir.sequence', [
      { name: 'Platform postings', sequence_type: journalType, company },
    ]);
    await m.create('account.journal', [
      { name: 'Platform postings', code: 'PLAT', type: 'general', sequence },
    ]);
    const root = await one(m, 'account.account', [
      ['company', '=', company],
      ['parent', '=', null],
    ]);
    const liability = await typeOf(m, company, 'account_type_template_liability_current_en');
    const cash = await typeOf(m, company, 'account_type_template_asset_current_cash_en');
    const payable = await typeOf(m, company, 'account_type_template_liability_current_payable_en');
    await m.create(
      'account.account',
      [
        { code: '2190', name: 'Corporate Card Clearing', type: liability, party_required: false },
        { code: '1020', name: 'Second Bank', type: cash, party_required: false },
        { code: '2010', name: 'Platform Payables', type: payable, party_required: true },
      ].map((a) => ({ ...a, company, parent: root })),
    );
    books = await readTrytonBooks(tryton.connection);
  });

  const journalId = (code: string) => one(books.models, 'account.journal', [['code', '=', code]]);
  const linesOf = async (reference: string) => {
    const id = Number(reference.split(',')[1]);
    const [move] = await books.models.searchRead('account.move', [['id', '=', id]], ['journal'], Move);
    const lines = await books.models.searchRead(
      'account.move.line',
      [['move', '=', id]],
      ['account', 'debit', 'credit'],
      Line,
    );
    return { journal: move!.journal, lines };
  };

  it('posts moves in the journal TRYTON_JOURNAL_CODE names, against the account codes the settings name', async () => {
    const erp = adapterWith({
      TRYTON_JOURNAL_CODE: 'PLAT',
      TRYTON_CARD_LIABILITY_ACCOUNT_CODE: '2190',
      TRYTON_BANK_ACCOUNT_CODE: '1020',
      TRYTON_ACCOUNTS_PAYABLE_ACCOUNT_CODE: '2010',
    });
    const o = objects(books.fixture);
    const [card, transfer] = await erp.postMany([
      o.card({ totalMinor: 4250 }),
      o.transfer({ totalMinor: 9900 }),
    ]);
    const cardMove = await linesOf(referenceOf(card!));
    expect(cardMove.journal).toBe(await journalId('PLAT'));
    const clearing = Number(books.accountId('2190'));
    expect(cardMove.lines.find((l) => l.account === clearing)?.credit.decimal).toBe('42.50');
    const transferMove = await linesOf(referenceOf(transfer!));
    expect(transferMove.lines.map((l) => [l.account, l.debit.decimal, l.credit.decimal]).sort()).toEqual(
      [
        [clearing, '99.00', '0.00'],
        [Number(books.accountId('1020')), '0.00', '99.00'],
      ].sort(),
    );

    const invoiceId = Number(referenceOf(await postOne(erp, o.bill())).split(',')[1]);
    const [invoice] = await books.models.searchRead(
      'account.invoice',
      [['id', '=', invoiceId]],
      ['account', 'state'],
      Invoice,
    );
    expect(invoice).toMatchObject({ account: Number(books.accountId('2010')), state: 'posted' });
  });

  it('with no settings, posts in SVC against 2100 and 1010 as before', async () => {
    const erp = adapterWith({});
    const transfer = await linesOf(referenceOf(await postOne(erp, objects(books.fixture).transfer())));
    expect(transfer.journal).toBe(await journalId('SVC'));
    expect(transfer.lines.map((l) => String(l.account)).sort()).toEqual(
      [books.accountId('2100'), books.accountId('1010')].sort(),
    );
  });

  const refusals = [
    {
      title: 'refuses with the code and the setting to change when an account code is not in the chart',
      setting: 'TRYTON_EMPLOYEE_PAYABLE_ACCOUNT_CODE',
      value: '2199',
      post: (erp: ErpAdapter) => postOne(erp, objects(books.fixture).reimbursement()),
      refusal: { category: 'user_actionable', code: 'DEFAULT_ACCOUNT_MISSING' },
    },
    {
      title:
        'answers a journal code Tryton does not have as needs_integrator, naming the code and the setting',
      setting: 'TRYTON_JOURNAL_CODE',
      value: 'NOPE',
      post: (erp: ErpAdapter) => postOne(erp, objects(books.fixture).cashback()),
      refusal: { category: 'needs_integrator', code: 'JOURNAL_MISSING' },
    },
  ];
  for (const { title, setting, value, post, refusal } of refusals) {
    it(title, async () => {
      const error = failureOf(await post(adapterWith({ [setting]: value })));
      expect(error).toMatchObject(refusal);
      expect(error.message).toContain(`code ${value}`);
      expect(error.message).toContain(setting);
    });
  }
});
