import { readFileSync } from 'node:fs';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { shapeMismatches } from '../../../../test/support/json-shape.ts';
import { type Harness, harness, type Json, tokenFor } from './helpers.ts';

/**
 * Fault `upload_answers` (docs/platform.md F41): chart uploads answered with no more than the
 * published copies require. The answers are checked against the examples of test/fixtures/platform
 * (written from the published shapes, never from this project's schemas), and every upload still
 * takes effect: the collection lists what the cut answer left out.
 */
const fixture = (name: string): Json =>
  JSON.parse(readFileSync(new URL(`../../../../test/fixtures/platform/${name}`, import.meta.url), 'utf8'));

let h: Harness;
afterAll(async () => {
  await h?.stub.close();
});
beforeEach(async () => {
  h ??= await harness();
  await h.control.post('/reset');
  h.api.setToken(await tokenFor(h.stub));
  await h.api.post('/accounting/connection', { remote_provider_name: 'Tryton' });
});

/** One upload of each batch route, in an order the platform accepts, with its list path. */
async function uploadEach(tag: string): Promise<{ route: string; body: Json; listed: Json[] }[]> {
  const out: { route: string; body: Json; listed: Json[] }[] = [];
  const post = async (route: string, body: unknown, list: string) => {
    const answer = await h.api.post(route, body);
    expect(answer.status, route).toBe(201);
    const listed = (await h.api.get(list)).body;
    out.push({ route, body: answer.body, listed: Array.isArray(listed.data) ? listed.data : [listed] });
    return answer.body as Json;
  };
  await post(
    '/accounting/accounts',
    { gl_accounts: [{ id: `gl-${tag}`, name: 'VAT', classification: 'LIABILITY' }] },
    '/accounting/accounts',
  );
  await post('/accounting/vendors', { vendors: [{ id: `v-${tag}`, name: 'Acme' }] }, '/accounting/vendors');
  await post(
    '/accounting/fields',
    { id: `f-${tag}`, name: 'Dept', input_type: 'SINGLE_CHOICE' },
    '/accounting/fields',
  );
  const field = (await h.api.get('/accounting/fields')).body.data.find((f: Json) => f.id === `f-${tag}`);
  await post(
    '/accounting/field-options',
    { field_id: field.svc_id, options: [{ id: `o-${tag}`, value: 'Sales' }] },
    `/accounting/field-options?field_id=${field.svc_id}`,
  );
  const rate = { id: `r-${tag}`, name: 'VAT 20', rate: '0.2', accounting_gl_account_id: `gl-${tag}` };
  await post('/accounting/tax/rates', { tax_rates: [rate] }, '/accounting/tax/rates');
  await post('/accounting/tax/code', { name: 'Tax code' }, '/accounting/tax/code');
  const option = { id: `tc-${tag}`, name: 'Standard', tax_rate_ids: [`r-${tag}`] };
  await post('/accounting/tax/code/options', { options: [option] }, '/accounting/tax/code/options');
  return out;
}

const BATCH = [
  '/accounting/accounts',
  '/accounting/vendors',
  '/accounting/field-options',
  '/accounting/tax/rates',
  '/accounting/tax/code/options',
];

describe('upload answers cut to what the published copies require (docs/platform.md F41)', () => {
  it('F41: ids_only answers every batch upload with the svc_ids it created, and the upload took effect', async () => {
    await h.control.put('/faults', { upload_answers: { '*': 'ids_only' } });
    for (const { route, body, listed } of await uploadEach('ids')) {
      if (!BATCH.includes(route)) continue;
      expect(Object.keys(body), route).toEqual(['uploaded']);
      expect(shapeMismatches(fixture('gl-accounts-upload-ids-only.json'), body), route).toEqual([]);
      expect(body.uploaded, route).toEqual(listed.map((item) => item.svc_id));
    }
  });

  it('F41: empty answers every batch upload {}, and the upload took effect', async () => {
    await h.control.put('/faults', { upload_answers: { '*': 'empty' } });
    for (const { route, body, listed } of await uploadEach('empty')) {
      if (!BATCH.includes(route)) continue;
      expect(body, route).toEqual(fixture('upload-answer-empty.json'));
      expect(listed, route).toHaveLength(1);
    }
  });

  it('F9, F41: the one-item creates keep what the published answer requires (plus svc_id under ids_only)', async () => {
    await h.control.put('/faults', {
      upload_answers: { 'POST /accounting/fields': 'empty', '/accounting/tax/code': 'ids_only' },
    });
    const answers = await uploadEach('one');
    const field = answers.find((a) => a.route === '/accounting/fields')!;
    expect(Object.keys(field.body).sort()).toEqual(['display_name', 'input_type', 'is_required_for']);
    expect(shapeMismatches(fixture('field-create-required-only.json'), field.body)).toEqual([]);
    expect(field.listed.map((f) => f.id)).toEqual(['f-one']);
    const code = answers.find((a) => a.route === '/accounting/tax/code')!;
    expect(code.body).toEqual({ svc_id: code.listed[0]!.svc_id });
    // The other uploads, not named, answer in full.
    const accounts = answers.find((a) => a.route === '/accounting/accounts')!;
    expect(shapeMismatches(fixture('gl-accounts-upload.json'), accounts.body)).toEqual([]);
  });

  it('without the fault every upload answers in full', async () => {
    for (const { route, body } of await uploadEach('full')) {
      if (route === '/accounting/accounts')
        expect(shapeMismatches(fixture('gl-accounts-upload.json'), body)).toEqual([]);
      if (route === '/accounting/fields')
        expect(shapeMismatches(fixture('field-create.json'), body)).toEqual([]);
    }
  });
});
