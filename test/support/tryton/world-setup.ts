import { z } from 'zod';
import { decimal, TrytonModels, TrytonRpc } from '../../../src/erp/index.ts';
import { TEST_CHART } from './world-chart.ts';

/**
 * Sets up the books of a fresh Tryton database through JSON-RPC, the way a bookkeeper would in
 * the client: a USD company, Tryton's minimal chart of accounts from its template, fiscal years
 * 2023–2026 with monthly periods (December 2024 closed), the journal the adapter posts to, the
 * accounts and taxes the test objects are coded with, a Department analytic axis and suppliers.
 * A second company in EUR gets books of the same layout (its own chart, fiscal years, accounts,
 * taxes and axis, and its own sequence on the shared journal); the admin user may work in both
 * and works in the first.
 */

const Row = z.object({ id: z.number().int() });
const DataRow = z.object({ db_id: z.number().int(), fs_id: z.string() });

type Connection = ConstructorParameters<typeof TrytonRpc>[0];

async function dataIds(m: TrytonModels, module: string, fsIds: string[]): Promise<Map<string, number>> {
  const rows = await m.searchRead(
    'ir.model.data',
    [
      ['module', '=', module],
      ['fs_id', 'in', fsIds],
    ],
    ['db_id', 'fs_id'],
    DataRow,
  );
  return new Map(rows.map((r) => [r.fs_id, r.db_id]));
}

async function one(m: TrytonModels, model: string, domain: unknown[]): Promise<number> {
  const [row] = await m.searchRead(model, domain, ['id'], Row, { limit: 1 });
  if (!row) throw new Error(`Tryton setup: no ${model} matches ${JSON.stringify(domain)}`);
  return row.id;
}

/** Company, and the admin user allowed to work in it (working in it when `current`). */
async function createCompany(
  m: TrytonModels,
  spec: { name: string; currency: { name: string; code: string; symbol: string } },
  current: boolean,
): Promise<number> {
  const [currency] = await m.create('currency.currency', [
    { ...spec.currency, rounding: decimal('0.01'), digits: 2 },
  ]);
  const [party] = await m.create('party.party', [{ name: spec.name }]);
  const [company] = await m.create('company.company', [{ party, currency }]);
  const userId = await m.rpc.userId();
  await m.write('res.user', [userId], { companies: [['add', [company]]], ...(current ? { company } : {}) });
  return company!;
}

async function createChart(m: TrytonModels, company: number): Promise<void> {
  const ids = await dataIds(m, 'account', ['account_template_root_en']);
  const template = ids.get('account_template_root_en')!;
  await m.wizard('account.create_chart', async (execute) => {
    await execute('account');
    await execute('create_account', { account: { company, account_template: template } });
    const payable = await one(m, 'account.account', [
      ['company', '=', company],
      ['type.payable', '=', true],
    ]);
    const receivable = await one(m, 'account.account', [
      ['company', '=', company],
      ['type.receivable', '=', true],
    ]);
    await execute('create_properties', {
      properties: { company, account_payable: payable, account_receivable: receivable },
    });
  });
}

function monthlyPeriods(year: number) {
  return Array.from({ length: 12 }, (_, i) => {
    const end = new Date(Date.UTC(year, i + 1, 0)).getUTCDate();
    const month = String(i + 1).padStart(2, '0');
    return {
      name: `${year}-${month}`,
      start_date: { __class__: 'date', year, month: i + 1, day: 1 },
      end_date: { __class__: 'date', year, month: i + 1, day: end },
      type: 'standard',
    };
  });
}

async function createFiscalYears(m: TrytonModels, company: number): Promise<void> {
  const moveType = await one(m, 'ir.sequence.type', [['name', '=', 'Account Move']]);
  const invoiceType = await one(m, 'ir.sequence.type', [['name', '=', 'Invoice']]);
  for (const year of TEST_CHART.fiscalYears) {
    const [moveSequence] = await m.create('ir.sequence', [
      { name: `Moves ${year}`, sequence_type: moveType, company },
    ]);
    const [invoiceSequence] = await m.create('ir.sequence.strict', [
      { name: `Invoices ${year}`, sequence_type: invoiceType, company },
    ]);
    const sequences = {
      company,
      in_invoice_sequence: invoiceSequence,
      in_credit_note_sequence: invoiceSequence,
      out_invoice_sequence: invoiceSequence,
      out_credit_note_sequence: invoiceSequence,
    };
    await m.create('account.fiscalyear', [
      {
        name: String(year),
        company,
        start_date: { __class__: 'date', year, month: 1, day: 1 },
        end_date: { __class__: 'date', year, month: 12, day: 31 },
        post_move_sequence: moveSequence,
        invoice_sequences: [['create', [sequences]]],
        periods: [['create', monthlyPeriods(year)]],
      },
    ]);
  }
  const closed = await one(m, 'account.period', [
    ['fiscalyear.company', '=', company],
    ['name', '=', TEST_CHART.closedPeriod],
  ]);
  await m.button('account.period', 'close', [closed]);
}

/** The journal is shared by the companies; its sequence is per company (a company value). */
async function createJournal(m: TrytonModels, company: number): Promise<void> {
  const journalType = await one(m, 'ir.sequence.type', [['name', '=', 'Account Journal']]);
  const [sequence] = await m.create('ir.sequence', [
    { name: 'Spend platform', sequence_type: journalType, company },
  ]);
  const existing = await m.searchRead(
    'account.journal',
    [['code', '=', TEST_CHART.journalCode]],
    ['id'],
    Row,
  );
  if (existing[0]) {
    await m.write('account.journal', [existing[0].id], { sequence });
    return;
  }
  await m.create('account.journal', [
    { name: 'Spend platform', code: TEST_CHART.journalCode, type: 'general', sequence },
  ]);
}

async function createAccounts(m: TrytonModels, company: number): Promise<void> {
  const types = await dataIds(m, 'account', [
    'account_type_template_expense_en',
    'account_type_template_revenue_en',
    'account_type_template_asset_current_cash_en',
    'account_type_template_liability_current_en',
  ]);
  const typeOf = async (fsId: string) =>
    one(m, 'account.account.type', [
      ['company', '=', company],
      ['template', '=', types.get(fsId)],
    ]);
  const byKind = {
    expense: await typeOf('account_type_template_expense_en'),
    revenue: await typeOf('account_type_template_revenue_en'),
    cash: await typeOf('account_type_template_asset_current_cash_en'),
    liability: await typeOf('account_type_template_liability_current_en'),
  };
  const root = await one(m, 'account.account', [
    ['company', '=', company],
    ['parent', '=', null],
  ]);
  await m.create(
    'account.account',
    TEST_CHART.accounts.map((a) => ({
      company,
      parent: root,
      code: a.code,
      name: a.name,
      type: byKind[a.kind],
      closed: a.closed ?? false,
    })),
  );
  const taxAccount = await one(m, 'account.account', [
    ['company', '=', company],
    ['name', '=', 'Main Tax'],
  ]);
  await m.create(
    'account.tax',
    TEST_CHART.taxes.map((t) => ({
      company,
      name: t.name,
      description: t.name,
      type: 'percentage',
      rate: decimal(t.rate),
      invoice_account: taxAccount,
      credit_note_account: taxAccount,
    })),
  );
}

async function createAnalytic(m: TrytonModels, company: number): Promise<void> {
  for (const axis of TEST_CHART.analytic) {
    const [root] = await m.create('analytic_account.account', [
      { company, name: axis.name, code: axis.code, type: 'root', state: 'opened' },
    ]);
    await m.create(
      'analytic_account.account',
      axis.options.map((o) => ({
        company,
        name: o.name,
        code: o.code,
        type: 'normal',
        state: 'opened',
        root,
        parent: root,
      })),
    );
  }
}

async function createSuppliers(m: TrytonModels): Promise<void> {
  await m.create(
    'party.party',
    TEST_CHART.suppliers.map((name) => ({ name, addresses: [['create', [{}]]] })),
  );
  const [inactive] = await m.create('party.party', [
    { name: TEST_CHART.inactiveSupplier, addresses: [['create', [{}]]] },
  ]);
  await m.write('party.party', [inactive!], { active: false });
}

async function createBooks(m: TrytonModels, company: number): Promise<void> {
  await createChart(m, company);
  await createFiscalYears(m, company);
  await createJournal(m, company);
  await createAccounts(m, company);
  await createAnalytic(m, company);
}

export async function setUpTrytonBooks(connection: Connection): Promise<void> {
  const admin = new TrytonModels(new TrytonRpc(connection));
  const company = await createCompany(admin, TEST_CHART.company, true);
  // The user's preferences changed (company): a new client reads them afresh.
  const m = new TrytonModels(new TrytonRpc(connection));
  await createBooks(m, company);
  await createSuppliers(m);
  const second = await createCompany(m, TEST_CHART.secondCompany, false);
  // Tryton shows a user the records of its current company only unless its Company Filter is
  // All; the books of the second company are set up with All, then the default comes back.
  const userId = await m.rpc.userId();
  await m.write('res.user', [userId], { company_filter: 'all' });
  await createBooks(new TrytonModels(new TrytonRpc(connection)).forCompany(second), second);
  await m.write('res.user', [userId], { company_filter: 'one' });
}

/** Lets the admin user see (and the adapter post to) every company: see src/erp/tryton/companies.ts. */
export async function showAllCompanies(connection: Connection): Promise<void> {
  const m = new TrytonModels(new TrytonRpc(connection));
  await m.write('res.user', [await m.rpc.userId()], { company_filter: 'all' });
}
