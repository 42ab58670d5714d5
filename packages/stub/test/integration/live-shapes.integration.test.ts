import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { absentInPage } from '../../../../test/support/absent-not-null.ts';
import { shapeMismatches } from '../../../../test/support/json-shape.ts';
import { type Harness, harness, type Json } from './helpers.ts';

/**
 * The stub's answers carry every field of the live-shaped examples in test/fixtures/platform
 * (written from the published platform, docs/platform.md F22–F35), with the same JSON types. The
 * examples are never derived from this project's schemas, so the stub and the client cannot drift
 * together: the client's own tests parse the same examples.
 */

const fixture = (name: string): Json =>
  JSON.parse(readFileSync(new URL(`../../../../test/fixtures/platform/${name}`, import.meta.url), 'utf8'));

describe('stub answers have the published shapes (docs/platform.md F22–F33)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness();
    await h.api.post('/accounting/connection', { remote_provider_name: 'Tryton' });
    await h.control.post('/seed', {
      seed: 7,
      transactions: 200,
      reimbursements: 40,
      transfers: 10,
      cashbacks: 10,
      bills: 60,
      entities: 3,
    });
  });
  afterAll(async () => {
    await h.stub.close();
  });

  const pages: [string, string][] = [
    ['F22, F23: transactions', '/transactions?sync_status=SYNC_READY&page_size=100'],
    ['F22, F24: reimbursements', '/reimbursements?sync_status=SYNC_READY&page_size=100'],
    ['F22, F25: transfers', '/transfers?sync_status=SYNC_READY&page_size=100'],
    ['F22, F25: cashbacks', '/cashbacks?sync_status=SYNC_READY&page_size=100'],
    ['F22, F26: bills', '/bills?sync_ready=true&page_size=100'],
    ['F27: entities (published shape)', '/entities?page_size=100'],
    ['F27: entities (guide shape)', '/entities?page_size=100'],
    ['F36, F37: transactions (absent and null)', '/transactions?sync_status=SYNC_READY&page_size=100'],
    ['F37: reimbursements (null)', '/reimbursements?sync_status=SYNC_READY&page_size=100'],
    ['F36–F38: bills (absent, null, payment id)', '/bills?page_size=100'],
  ];
  const files: Record<string, string> = {
    'F22, F23: transactions': 'transactions-page.json',
    'F22, F24: reimbursements': 'reimbursements-page.json',
    'F22, F25: transfers': 'transfers-page.json',
    'F22, F25: cashbacks': 'cashbacks-page.json',
    'F22, F26: bills': 'bills-page.json',
    'F27: entities (published shape)': 'entities-published-page.json',
    'F27: entities (guide shape)': 'entities-spec-page.json',
    'F36, F37: transactions (absent and null)': 'transactions-absent-page.json',
    'F37: reimbursements (null)': 'reimbursements-nullable-page.json',
    'F36–F38: bills (absent, null, payment id)': 'bills-absent-page.json',
  };

  for (const [name, path] of pages) {
    it(`${name}: every item carries the published fields`, async () => {
      const answer = await h.api.get(path);
      expect(answer.status).toBe(200);
      expect(answer.body.data.length).toBeGreaterThan(0);
      // docs/platform.md F36: a field the published copies keep non-null may be left out.
      const list = path.slice(1, path.indexOf('?'));
      expect(shapeMismatches(fixture(files[name]!), answer.body, absentInPage(list))).toEqual([]);
    });
  }

  it('F8, F10, F11: upload answers carry the published fields', async () => {
    const accounts = await h.api.post('/accounting/accounts', {
      gl_accounts: [{ id: 'shape-1', name: 'Shape check', classification: 'EXPENSE', code: '9990' }],
    });
    expect(accounts.status).toBe(201);
    expect(shapeMismatches(fixture('gl-accounts-upload.json'), accounts.body)).toEqual([]);

    const field = await h.api.post('/accounting/fields', {
      id: 'shape-field',
      name: 'Shape field',
      input_type: 'SINGLE_CHOICE',
    });
    expect(field.status).toBe(201);
    expect(shapeMismatches(fixture('field-create.json'), field.body)).toEqual([]);

    const options = await h.api.post('/accounting/field-options', {
      field_id: field.body.svc_id,
      options: [{ id: 'shape-opt', value: 'Shape option' }],
    });
    expect(options.status).toBe(201);
    expect(shapeMismatches(fixture('field-options-upload.json'), options.body)).toEqual([]);

    const vendors = await h.api.post('/accounting/vendors', {
      vendors: [{ id: 'shape-v', name: 'Shape Ltd' }],
    });
    expect(vendors.status).toBe(201);
    expect(shapeMismatches(fixture('vendors-upload.json'), vendors.body)).toEqual([]);
  });

  it('F13, F31: tax rate, tax code and tax code option answers carry the published fields', async () => {
    const gl = await h.api.post('/accounting/accounts', {
      gl_accounts: [{ id: 'shape-tax-gl', name: 'VAT payable', classification: 'LIABILITY' }],
    });
    const rates = await h.api.post('/accounting/tax/rates', {
      tax_rates: [
        {
          id: 'shape-rate',
          name: 'VAT 20',
          rate: '0.2',
          accounting_gl_account_id: gl.body.gl_accounts[0].id,
        },
      ],
    });
    expect(rates.status).toBe(201);
    expect(shapeMismatches(fixture('tax-rates-upload.json'), rates.body)).toEqual([]);
    const code = await h.api.post('/accounting/tax/code', { name: 'Tax code' });
    expect([200, 201]).toContain(code.status);
    expect(shapeMismatches(fixture('tax-code.json'), code.body)).toEqual([]);
    const options = await h.api.post('/accounting/tax/code/options', {
      options: [{ id: 'shape-tc', name: 'Standard', tax_rate_ids: ['shape-rate'] }],
    });
    expect(options.status).toBe(201);
    expect(shapeMismatches(fixture('tax-code-options-upload.json'), options.body)).toEqual([]);
  });

  it('F6, F32: connection answers and the bare webhook list', async () => {
    const connection = await h.api.get('/accounting/connection');
    expect(shapeMismatches(fixture('connection.json'), connection.body)).toEqual([]);
    const all = await h.api.get('/accounting/all-connections');
    expect(shapeMismatches(fixture('all-connections.json'), all.body)).toEqual([]);
    await h.api.post('/webhooks', {
      endpoint_url: 'http://127.0.0.1:9/hook',
      event_types: ['transactions.ready_to_sync'],
    });
    const hooks = await h.api.get('/webhooks');
    expect(Array.isArray(hooks.body)).toBe(true);
    expect(shapeMismatches(fixture('webhooks-list.json'), hooks.body)).toEqual([]);
  });

  it('F2, F29: a write with no body answers the published 7011 error', async () => {
    const connection = await h.api.get('/accounting/connection');
    const res = await h.api.call('POST', `/accounting/connection/${connection.body.id}/ready-to-migrate`);
    expect(res.status).toBe(400);
    const body = res.body;
    expect(body.error_v2.error_code).toBe('DEVELOPER_7011');
    expect(shapeMismatches(fixture('error-7011.json'), body)).toEqual([]);
  });
});
