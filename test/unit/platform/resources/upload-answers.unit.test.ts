import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { UnexpectedResponseError } from '../../../../src/platform/errors.ts';
import { chartOfAccountsResource } from '../../../../src/platform/resources/chart-of-accounts.ts';

/**
 * Upload answers are read tolerantly (docs/platform.md F41): both published copies make an upload
 * answer's item list optional, so `{uploaded: [ids]}` and `{}` are whole answers that confirm no
 * item, and the published field answer may carry neither `id` nor `svc_id`. None of them is a
 * stop; the mirror settles the items by reading the collection. The answers are the examples of
 * test/fixtures/platform, written from the published shapes.
 */
const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../../../fixtures/platform/${name}`, import.meta.url), 'utf8'));

const answering = (answer: unknown) =>
  chartOfAccountsResource({
    send: async () => ({ status: 201, body: answer, traceId: null, headers: {} }) as never,
    sendIdempotent: async () => ({ alreadyApplied: false, body: null, traceId: null }),
  });

const gl = { gl_accounts: [{ id: '87', name: 'Office Supplies', classification: 'EXPENSE' as const }] };

describe('upload answers without their item list (docs/platform.md F41)', () => {
  for (const name of ['gl-accounts-upload-ids-only.json', 'upload-answer-empty.json']) {
    it(`F41: ${name} confirms no item and is no error, for every batch upload`, async () => {
      const chart = answering(fixture(name));
      expect((await chart.uploadGlAccounts(gl)).items).toEqual([]);
      expect((await chart.uploadVendors({ vendors: [{ id: '412', name: 'Northwind' }] })).items).toEqual([]);
      const fieldId = '7fa5e6e1-b92e-48a2-afbd-33c65ea9e791';
      const options = await chart.uploadFieldOptions({
        field_id: fieldId,
        options: [{ id: '10', value: 'R' }],
      });
      expect(options.items).toEqual([]);
      const rate = { id: 'vat', name: 'VAT', rate: '0.2', accounting_gl_account_id: 'gl' };
      expect((await chart.uploadTaxRates({ tax_rates: [rate] })).items).toEqual([]);
      const option = { id: 'tc', name: 'Standard', tax_rate_ids: ['vat'] };
      expect((await chart.uploadTaxCodeOptions({ options: [option] })).items).toEqual([]);
    });
  }

  it('F41: a null item list is read as none; a full answer is still read item by item', async () => {
    expect((await answering({ gl_accounts: null }).uploadGlAccounts(gl)).items).toEqual([]);
    const full = await answering(fixture('gl-accounts-upload.json')).uploadGlAccounts(gl);
    expect(full.items.map((i) => (i.ok ? i.value.id : i.error))).toEqual(['87', '91', '140']);
  });

  it('F9, F41: a field answer with only its required properties is no field, and no error', async () => {
    const body = { id: 'department', name: 'Department', input_type: 'SINGLE_CHOICE' as const };
    expect(await answering(fixture('field-create-required-only.json')).createField(body)).toBeNull();
    expect(
      await answering(fixture('upload-answer-empty.json')).createTaxCode({ name: 'Tax code' }),
    ).toBeNull();
    expect((await answering(fixture('field-create.json')).createField(body))?.svc_id).toBe(
      '7fa5e6e1-b92e-48a2-afbd-33c65ea9e791',
    );
  });

  it('an answer that is not an object at all is still an unexpected answer', async () => {
    await expect(answering([1, 2]).uploadGlAccounts(gl)).rejects.toBeInstanceOf(UnexpectedResponseError);
    await expect(answering({ gl_accounts: 'none' }).uploadGlAccounts(gl)).rejects.toBeInstanceOf(
      UnexpectedResponseError,
    );
    const body = { id: 'd', name: 'D', input_type: 'BOOLEAN' as const };
    await expect(answering('created').createField(body)).rejects.toBeInstanceOf(UnexpectedResponseError);
  });
});
