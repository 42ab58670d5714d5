import { describe, expect, it } from 'vitest';
import { seedLedger } from '../../../../src/erp/index.ts';
import type { MirrorProgress } from '../../../../src/sync/mirror/index.ts';
import { chartDifferences, type StubChart } from './support/compare.ts';
import { arrivalMark, arrivalsSince, count, writes } from './support/effects.ts';
import { useMirrorHarness } from './support/harness.ts';

const h = useMirrorHarness({ rateLimit: false });

async function stubChart(connectionId: string): Promise<StubChart> {
  return h.control<StubChart>('GET', `/__stub/chart?accounting_connection_id=${connectionId}`);
}

async function idMapRows(connectionId: string): Promise<number> {
  const [row] = await h.db.sql<{ rows: number }[]>`
    select count(*)::int as rows from id_map where connection_id = ${connectionId}`;
  return row!.rows;
}

describe('mirrorChart: the built-in ledger through the stub (upload order, docs/platform.md G15, F8-F13)', () => {
  it('mirrors a realistic chart, then a re-run with no ERP change makes zero write calls', async () => {
    const ledger = await h.newLedger();
    await seedLedger(h.db.sql, ledger.schema, { preset: 'small', seed: 7 });
    const connectionId = await h.newConnection();
    const progress: MirrorProgress[] = [];

    const first = await h.mirror(ledger, connectionId, {}, { onProgress: (p) => progress.push(p) });
    expect(await chartDifferences(await stubChart(connectionId), ledger.erp)).toEqual([]);
    expect(Object.values(first.kinds).flatMap((k) => k.failed)).toEqual([]);
    expect(first.kinds.gl_account.created).toBeGreaterThan(100);
    expect(first.kinds.gl_account.hidden).toBeGreaterThan(0); // the seed hides ~2% of accounts
    expect(first.kinds.field.created).toBe(4);
    expect(first.kinds.tax_code_field.created).toBe(1);
    expect(first.kinds.tax_code_option.created).toBe(6); // tc-vat175 is inactive: not created
    expect(progress.some((p) => p.kind === 'field_option' && p.phase === 'done')).toBe(true);

    const mark = await arrivalMark(h);
    const again = await h.mirror(ledger, connectionId);
    const { arrivals } = await arrivalsSince(h, mark);
    expect(writes(arrivals)).toEqual([]);
    expect(again.writeCalls).toBe(0);
    expect(again.kinds.gl_account.unchanged).toBe(
      first.kinds.gl_account.created + first.kinds.gl_account.unchanged,
    );
  });

  it('a dry run plans without a single platform call or id_map write', async () => {
    const ledger = await h.newLedger();
    await seedLedger(h.db.sql, ledger.schema, { preset: 'small', seed: 8 });
    const connectionId = await h.newConnection();
    const mark = await arrivalMark(h);
    const plan = await h.mirror(ledger, connectionId, { dryRun: true });
    expect((await arrivalsSince(h, mark)).arrivals).toEqual([]);
    expect(await idMapRows(connectionId)).toBe(0);
    expect(plan.dryRun).toBe(true);
    const real = await h.mirror(ledger, connectionId);
    for (const kind of [
      'gl_account',
      'field',
      'field_option',
      'vendor',
      'tax_rate',
      'tax_code_option',
    ] as const) {
      expect(plan.kinds[kind].created, kind).toBe(real.kinds[kind].created);
    }
  });

  it('ERP edits (rename, deactivate, reactivate, hide, unhide, new items) all arrive after one re-run', async () => {
    const ledger = await h.newLedger();
    await seedLedger(h.db.sql, ledger.schema, { preset: 'small', seed: 9 });
    const sql = h.db.sql;
    const t = (name: string) => sql(`${ledger.schema}.${name}`);
    // Known starting states (the seed deactivates a few items at random).
    await sql`update ${t('vendors')} set active = true where id in ('ven-00001', 'ven-00002')`;
    await sql`update ${t('field_options')} set active = true, hidden = false where field_id = 'department'`;
    const connectionId = await h.newConnection();
    await h.mirror(ledger, connectionId);

    // A second run deactivates first, so that "reactivate" is tested too.
    await ledger.admin.setVendorActive('ven-00002', false);
    await ledger.admin.setOptionActive('department', 'department-002', false);
    await h.mirror(ledger, connectionId);

    await sql`update ${t('accounts')} set name = 'Advertising (renamed)', code = '6999' where id = 'gl-6000'`;
    await sql`update ${t('field_options')} set value = 'Sales (renamed)' where id = 'department-001'`;
    await sql`update ${t('vendors')} set name = 'Vendor Renamed' where id = 'ven-00001'`;
    await sql`update ${t('custom_fields')} set name = 'Cost centre' where id = 'class'`;
    await ledger.admin.setAccountActive('gl-6010', false);
    await ledger.admin.setAccountHidden('gl-6020', true);
    await ledger.admin.setVendorActive('ven-00002', true);
    await ledger.admin.setOptionActive('department', 'department-002', true);
    await sql`update ${t('field_options')} set hidden = true where id = 'department-003'`;
    await sql`delete from ${t('field_options')} where id = 'department-004'`;
    await ledger.write.accounts([
      {
        id: 'gl-9990',
        code: '9990',
        name: 'New account',
        classification: 'EXPENSE',
        active: true,
        hidden: false,
      },
    ]);
    await ledger.write.options([
      { fieldId: 'project', id: 'project-new', value: 'New project', code: 'PN', active: true, hidden: true },
    ]);
    await ledger.write.vendors([{ id: 'ven-new', name: 'New vendor', code: 'VN', active: true }]);

    const mark = await arrivalMark(h);
    const summary = await h.mirror(ledger, connectionId);
    expect(await chartDifferences(await stubChart(connectionId), ledger.erp)).toEqual([]);
    expect(Object.values(summary.kinds).flatMap((k) => k.failed)).toEqual([]);
    expect(summary.kinds.gl_account).toMatchObject({ created: 1, updated: 1, deactivated: 1, hidden: 1 });
    expect(summary.kinds.field).toMatchObject({ updated: 1 });
    expect(summary.kinds.field_option).toMatchObject({
      created: 1,
      updated: 1,
      deactivated: 1,
      reactivated: 1,
      hidden: 2,
    });
    expect(summary.kinds.vendor).toMatchObject({ created: 1, updated: 1, reactivated: 1 });

    const { arrivals } = await arrivalsSince(h, mark);
    expect(writes(arrivals)).toHaveLength(summary.writeCalls);
    // 3 uploads + 1 PATCH hiding the new option + 10 PATCH/DELETE for the edits.
    expect(count(arrivals, 'POST', '/accounting/field-options')).toBe(1);
    expect(summary.writeCalls).toBe(14);

    const quiet = await h.mirror(ledger, connectionId);
    expect(quiet.writeCalls).toBe(0);
  });

  it('mirrors into an inactive connection, leaving the active one untouched (docs/platform.md G30)', async () => {
    const ledger = await h.newLedger();
    await seedLedger(h.db.sql, ledger.schema, { preset: 'small', seed: 10 });
    const active = await h.newConnection();
    const before = await stubChart(active);
    const target = await h.newConnection({ active: false });
    expect(target).not.toBe(active);

    const summary = await h.mirror(ledger, active, { accountingConnectionId: target });
    expect(summary.connectionId).toBe(target);
    expect(await chartDifferences(await stubChart(target), ledger.erp)).toEqual([]);
    expect((await stubChart(active)).counts).toEqual(before.counts);
    expect(await idMapRows(active)).toBe(0);
  });

  it('one mirror per connection at a time: a second one reports busy', async () => {
    const ledger = await h.newLedger();
    await seedLedger(h.db.sql, ledger.schema, { preset: 'small', seed: 11 });
    const connectionId = await h.newConnection();
    const [a, b] = await Promise.all([h.mirror(ledger, connectionId), h.mirror(ledger, connectionId)]);
    expect([a.busy, b.busy].sort()).toEqual([false, true]);
    const done = a.busy ? b : a;
    expect(done.kinds.gl_account.created).toBeGreaterThan(0);
    expect(await chartDifferences(await stubChart(connectionId), ledger.erp)).toEqual([]);
  });

  it('mirrors only the kinds asked for, and stops between calls when its signal aborts', async () => {
    const ledger = await h.newLedger();
    await seedLedger(h.db.sql, ledger.schema, { preset: 'small', seed: 12 });
    const connectionId = await h.newConnection();
    const only = await h.mirror(ledger, connectionId, { kinds: ['gl_account'] });
    expect(only.kinds.gl_account.created).toBeGreaterThan(0);
    expect(only.kinds.vendor.created).toBe(0);
    expect((await stubChart(connectionId)).counts.vendors).toBe(0);

    const controller = new AbortController();
    const stop = (p: MirrorProgress) => {
      if (p.kind === 'field_option' && p.phase === 'planned' && p.total > 0)
        controller.abort(new Error('shutting down'));
    };
    await expect(
      h.mirror(ledger, connectionId, { signal: controller.signal }, { onProgress: stop }),
    ).rejects.toThrow('shutting down');
    const rest = await h.mirror(ledger, connectionId);
    expect(rest.kinds.field.unchanged).toBe(4);
    expect(rest.kinds.field_option.created).toBeGreaterThan(0);
    expect(await chartDifferences(await stubChart(connectionId), ledger.erp)).toEqual([]);
  });
});
