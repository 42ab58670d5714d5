import { describe, expect, it } from 'vitest';
import { backupChartSource } from '../../../../src/sync/connection-migration/backup-chart-source.ts';
import type { PlatformChart } from '../../../../src/sync/connection-migration/platform-chart.ts';

async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

const chart: PlatformChart = {
  gl_accounts: [
    {
      id: 'gl-1',
      svc_id: 's-gl-1',
      is_active: true,
      name: 'Travel',
      code: '6100',
      classification: 'EXPENSE',
      visibility: 'VISIBLE',
    },
    { id: 'gl-2', svc_id: 's-gl-2', is_active: true, name: 'Old', code: null, visibility: 'HIDDEN' },
    { id: 'gl-3', svc_id: 's-gl-3', is_active: false, name: 'Closed', classification: 'ASSET' },
    { id: 'gl-4', svc_id: 's-gl-4', is_active: true, code: '9' },
  ],
  fields: [
    {
      id: 'dept',
      svc_id: 's-dept',
      is_active: true,
      name: 'Department',
      input_type: 'SINGLE_CHOICE',
      is_required_for: ['BILL'],
      options: [
        {
          id: 'eng',
          svc_id: 's-eng',
          is_active: true,
          value: 'Engineering',
          code: 'E',
          visibility: 'VISIBLE',
        },
        { id: 'ops', svc_id: 's-ops', is_active: true, value: 'Ops', visibility: 'HIDDEN' },
      ],
    },
  ],
  vendors: [{ id: 'v-1', svc_id: 's-v-1', is_active: true, name: 'Acme', code: 'A1' }],
  tax_rates: [
    {
      id: 'r-1',
      svc_id: 's-r-1',
      is_active: true,
      name: 'VAT',
      rate: '0.2',
      accounting_gl_account_id: 's-gl-1',
    },
    {
      id: 'r-2',
      svc_id: 's-r-2',
      is_active: false,
      name: 'Old VAT',
      rate: '0.1',
      accounting_gl_account_id: 'gl-1',
    },
  ],
  tax_code_options: [
    { id: 'tc-1', svc_id: 's-tc-1', is_active: true, name: 'Standard', tax_rate_ids: ['r-1'] },
  ],
  unreadable: [{ list: 'vendors', id: 'v-9', error: 'svc_id: Required' }],
};

describe('a chart backup read as the chart mirror reads the ERP (docs/platform.md G30, F12)', () => {
  it('every backed-up item under its remote id, with its content, active flag and visibility (G17)', async () => {
    const { source } = backupChartSource(chart);
    expect(await all(source.glAccounts())).toEqual([
      { id: 'gl-1', name: 'Travel', code: '6100', classification: 'EXPENSE', active: true, hidden: false },
      { id: 'gl-2', name: 'Old', code: '', classification: 'UNKNOWN', active: true, hidden: true },
      { id: 'gl-3', name: 'Closed', code: '', classification: 'ASSET', active: false, hidden: false },
    ]);
    expect(await all(source.customFields())).toEqual([
      {
        id: 'dept',
        name: 'Department',
        inputType: 'SINGLE_CHOICE',
        active: true,
        hidden: false,
        requiredFor: ['BILL'],
      },
    ]);
    expect(await all(source.fieldOptions('dept'))).toEqual([
      { fieldId: 'dept', id: 'eng', value: 'Engineering', code: 'E', active: true, hidden: false },
      { fieldId: 'dept', id: 'ops', value: 'Ops', code: '', active: true, hidden: true },
    ]);
    expect(await all(source.fieldOptions('unknown'))).toEqual([]);
    expect(await all(source.vendors())).toEqual([{ id: 'v-1', name: 'Acme', code: 'A1', active: true }]);
    expect(await all(source.taxCodes())).toEqual([
      { id: 'tc-1', name: 'Standard', rateIds: ['r-1'], active: true },
    ]);
  });

  it('a tax rate names its GL account by remote id again; an inactive rate is not restored', async () => {
    const { source } = backupChartSource(chart);
    expect(await all(source.taxRates())).toEqual([
      { id: 'r-1', name: 'VAT', rate: '0.2', glAccountId: 'gl-1' },
    ]);
  });

  it('what cannot be uploaded as it is, is named and skipped, never sent half-read', () => {
    const { skipped } = backupChartSource(chart);
    expect(skipped).toEqual([
      { list: 'gl_accounts', id: 'gl-4', reason: expect.stringMatching(/^name: /) },
      { list: 'vendors', id: 'v-9', reason: 'unreadable when backed up: svc_id: Required' },
    ]);
  });
});
