import { afterEach, describe, expect, it } from 'vitest';
import { ValidationError } from '../../../../src/platform/index.ts';
import type { ChartPlatform } from '../../../../src/sync/mirror/types.ts';
import type { StubChart } from './support/compare.ts';
import { arrivalMark, arrivalsSince, count, writes } from './support/effects.ts';
import { type Ledger, useMirrorHarness } from './support/harness.ts';

const h = useMirrorHarness({ rateLimit: false });

const OPTIONS = 2000;
const optionId = (i: number) => `opt-${String(i).padStart(5, '0')}`;
// In three different batches of 500 (the ERP streams options by id).
const BAD = [optionId(123), optionId(777), optionId(1999)];

async function ledgerWithOptions(): Promise<Ledger> {
  const ledger = await h.newLedger();
  await ledger.write.fields([
    {
      id: 'dept',
      name: 'Department',
      inputType: 'SINGLE_CHOICE',
      active: true,
      hidden: false,
      requiredFor: [],
    },
  ]);
  await ledger.write.options(
    Array.from({ length: OPTIONS }, (_, i) => ({
      fieldId: 'dept',
      id: optionId(i),
      value: `Department ${i}`,
      code: String(i),
      active: true,
      hidden: false,
    })),
  );
  return ledger;
}

/** The platform client as seen by a platform whose 422 says "invalid" and names nothing. */
function unnamingPlatform(): ChartPlatform {
  const chart = h.client.chart;
  const uploadFieldOptions: typeof chart.uploadFieldOptions = async (body) => {
    try {
      return await chart.uploadFieldOptions(body);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      throw new ValidationError({
        status: error.status,
        code: error.code,
        message: 'options: invalid',
        traceId: error.traceId,
        retryable: false,
        additionalInfo: {},
      });
    }
  };
  return { chart: { ...chart, uploadFieldOptions } };
}

afterEach(async () => {
  await h.control('PUT', '/__stub/faults', {});
});

describe('2,000 field options, 3 refused only by the platform (docs/platform.md G9, F10, F12)', () => {
  it('1,997 land and the 3 are reported; the 422 names them, so 4 + 3 upload calls', async () => {
    const ledger = await ledgerWithOptions();
    const connectionId = await h.newConnection();
    await h.control('PUT', '/__stub/faults', { reject_remote_ids: BAD });
    const mark = await arrivalMark(h);
    const started = performance.now();

    const summary = await h.mirror(ledger, connectionId);
    const elapsed = performance.now() - started;
    const { arrivals } = await arrivalsSince(h, mark);
    const uploads = count(arrivals, 'POST', '/accounting/field-options');

    const chart = await h.control<StubChart>('GET', `/__stub/chart?accounting_connection_id=${connectionId}`);
    const landed = chart.fields.find((f) => f.id === 'dept')!.options;
    expect(landed).toHaveLength(OPTIONS - BAD.length);
    expect(landed.some((o) => BAD.includes(o.id))).toBe(false);
    expect(summary.kinds.field_option.created).toBe(OPTIONS - BAD.length);
    expect(summary.kinds.field_option.failed.map((f) => f.remoteId).sort()).toEqual(BAD);
    for (const failure of summary.kinds.field_option.failed) {
      expect(failure).toMatchObject({
        parentRemoteId: 'dept',
        action: 'create',
        reason: 'rejected by the platform',
      });
    }
    expect(uploads).toBe(4 + BAD.length);
    console.info(`[measure] 2,000 options, 3 named bad: ${uploads} upload calls, ${elapsed.toFixed(0)} ms`);

    // Known refusals are not resent while unchanged: a re-run makes zero write calls.
    const again = await arrivalMark(h);
    const rerun = await h.mirror(ledger, connectionId);
    expect(writes((await arrivalsSince(h, again)).arrivals)).toEqual([]);
    expect(rerun.kinds.field_option.failed.map((f) => f.remoteId).sort()).toEqual(BAD);

    // Once the ERP changes a refused item, it is tried again (and the platform takes it now).
    await h.control('PUT', '/__stub/faults', {});
    await h.db
      .sql`update ${h.db.sql(`${ledger.schema}.field_options`)} set value = 'Fixed' where id = ${BAD[0]!}`;
    const fixed = await h.mirror(ledger, connectionId);
    expect(fixed.kinds.field_option.created).toBe(1);
    expect(fixed.kinds.field_option.failed).toHaveLength(2);
  });

  it('when the 422 names nothing, halving isolates them in at most 4 + 3 × 18 upload calls', async () => {
    const ledger = await ledgerWithOptions();
    const connectionId = await h.newConnection();
    await h.control('PUT', '/__stub/faults', { reject_remote_ids: BAD });
    const mark = await arrivalMark(h);
    const started = performance.now();

    const summary = await h.mirror(ledger, connectionId, {}, { platform: unnamingPlatform() });
    const elapsed = performance.now() - started;
    const uploads = count((await arrivalsSince(h, mark)).arrivals, 'POST', '/accounting/field-options');

    const chart = await h.control<StubChart>('GET', `/__stub/chart?accounting_connection_id=${connectionId}`);
    expect(chart.fields.find((f) => f.id === 'dept')!.options).toHaveLength(OPTIONS - BAD.length);
    expect(summary.kinds.field_option.failed.map((f) => f.remoteId).sort()).toEqual(BAD);
    expect(summary.kinds.field_option.failed[0]!.reason).toBe('options: invalid');
    expect(uploads).toBeLessThanOrEqual(4 + 3 * 18);
    console.info(`[measure] 2,000 options, 3 unnamed bad: ${uploads} upload calls, ${elapsed.toFixed(0)} ms`);
  });
});
