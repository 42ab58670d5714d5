import { describe, expect, it } from 'vitest';
import type {
  CustomField,
  ErpVendor,
  FieldOption,
  GlAccount,
  TaxCode,
  TaxRate,
} from '../../../../src/erp/index.ts';
import type {
  PlatformChart,
  PlatformItem,
} from '../../../../src/sync/connection-migration/platform-chart.ts';
import { describeDifferences, verifyPreload } from '../../../../src/sync/connection-migration/verify.ts';
import type { ChartSource } from '../../../../src/sync/mirror/index.ts';

async function* stream<T>(items: T[]): AsyncIterable<T> {
  yield* items;
}

const gl = (id: string, active = true, hidden = false): GlAccount => ({
  id,
  name: id,
  code: '',
  classification: 'EXPENSE',
  active,
  hidden,
});

function erpOf(chart: {
  gl?: GlAccount[];
  fields?: CustomField[];
  options?: FieldOption[];
  vendors?: ErpVendor[];
  rates?: TaxRate[];
  codes?: TaxCode[];
}): ChartSource {
  return {
    glAccounts: () => stream(chart.gl ?? []),
    customFields: () => stream(chart.fields ?? []),
    fieldOptions: (fieldId: string) => stream((chart.options ?? []).filter((o) => o.fieldId === fieldId)),
    vendors: () => stream(chart.vendors ?? []),
    taxRates: () => stream(chart.rates ?? []),
    taxCodes: () => stream(chart.codes ?? []),
  };
}

const item = (id: string, is_active = true): PlatformItem => ({ id, svc_id: `svc-${id}`, is_active });

function platformOf(chart: Partial<PlatformChart>): PlatformChart {
  return {
    gl_accounts: [],
    fields: [],
    vendors: [],
    tax_rates: [],
    tax_code_options: [],
    unreadable: [],
    ...chart,
  };
}

describe('verifying the preload: the new connection holds exactly the ERP chart (docs/platform.md G30)', () => {
  it('passes when the active ids match, hidden items counting as active and inactive ones left out', async () => {
    const erp = erpOf({
      gl: [gl('a'), gl('b', true, true), gl('c', false)],
      fields: [
        {
          id: 'dept',
          name: 'Dept',
          inputType: 'SINGLE_CHOICE',
          active: true,
          hidden: false,
          requiredFor: [],
        },
      ],
      options: [{ fieldId: 'dept', id: 'eng', value: 'Eng', code: '', active: true, hidden: false }],
    });
    const chart = platformOf({
      gl_accounts: [item('a'), item('b'), item('c', false)],
      fields: [{ ...item('dept'), options: [item('eng'), item('old', false)] }],
    });
    const verification = await verifyPreload(erp, chart);
    expect(verification.ok).toBe(true);
    expect(verification.lists.gl_accounts).toMatchObject({ erp: 2, platform: 2 });
    expect(verification.lists.field_options).toMatchObject({ erp: 1, platform: 1 });
  });

  it('names what is missing, what the ERP does not have, and what is there twice', async () => {
    const erp = erpOf({
      gl: [gl('a'), gl('b')],
      vendors: [{ id: 'v1', name: 'V1', code: '', active: true }],
      rates: [{ id: 'r1', name: 'R1', rate: '0.1', glAccountId: 'a' }],
    });
    const chart = platformOf({
      gl_accounts: [item('a'), item('a'), item('z')],
      vendors: [],
      tax_rates: [item('r1')],
    });
    const verification = await verifyPreload(erp, chart);
    expect(verification.ok).toBe(false);
    expect(verification.lists.gl_accounts).toEqual({
      erp: 2,
      platform: 3,
      missing: ['b'],
      extra: ['z'],
      duplicates: ['a'],
    });
    expect(describeDifferences(verification)).toEqual([
      'gl_accounts: ERP 2, platform 3; missing b; not in the ERP z; twice a',
      'vendors: ERP 1, platform 0; missing v1',
    ]);
  });

  it('fails when the platform sent items it could not read', async () => {
    const chart = platformOf({ unreadable: [{ list: 'vendors', id: null, error: 'no svc_id' }] });
    expect((await verifyPreload(erpOf({}), chart)).ok).toBe(false);
  });
});
