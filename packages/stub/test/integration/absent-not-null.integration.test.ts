import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ABSENT_NOT_NULL } from '../../../../test/support/absent-not-null.ts';
import { allPages, type Harness, harness, type Json } from './helpers.ts';

/**
 * docs/platform.md F36: the fields both published copies make optional and never null are left
 * out by the live service, and by the stub; a field selection always names its provider. F38: a
 * paid bill's payment carries the key `id`. Every object kind the stub serves is walked, coded
 * objects and paid bills included.
 */

/** Every path (array indexes written `[]`) at which a value is null. */
function nullPaths(value: unknown, path = ''): string[] {
  if (value === null) return [path];
  if (Array.isArray(value)) return value.flatMap((item) => nullPaths(item, `${path}[]`));
  if (typeof value === 'object') {
    return Object.entries(value as Json).flatMap(([key, v]) => nullPaths(v, path ? `${path}.${key}` : key));
  }
  return [];
}

const selectionsOf = (o: Json): Json[] => [
  ...o.accounting_field_selections,
  ...(o.line_items ?? []).flatMap((l: Json) => l.accounting_field_selections),
];

describe('docs/platform.md F36, F38: the stub leaves out what the live service never sends as null', () => {
  let h: Harness;
  const served: Record<string, Json[]> = {};
  beforeAll(async () => {
    h = await harness();
    await h.api.post('/accounting/connection', { remote_provider_name: 'Tryton' });
    await h.control.post('/seed', {
      seed: 11,
      transactions: 150,
      reimbursements: 40,
      transfers: 10,
      cashbacks: 10,
      bills: 60,
      entities: 3,
    });
    // A coding made through the API (F18) and a bill paid now (F26) are served too.
    await h.api.post('/accounting/accounts', {
      gl_accounts: [
        { id: 'F36-GL', name: 'No code', classification: 'EXPENSE' },
        { id: 'F36-GL-CODED', name: 'Coded', classification: 'EXPENSE', code: '6100' },
      ],
    });
    const ready = (await h.api.get('/transactions?sync_status=SYNC_READY&page_size=2')).body.data;
    for (const [n, gl] of ['F36-GL', 'F36-GL-CODED'].entries()) {
      const coded = await h.api.post('/accounting/codings', {
        object_type: 'TRANSACTION',
        object_id: ready[n].id,
        accounting_field_selections: [{ field_external_id: 'Category', field_option_external_id: gl }],
      });
      expect(coded.status).toBe(200);
    }
    const [open] = (await h.api.get('/bills?status=OPEN&page_size=2')).body.data;
    expect((await h.control.post(`/bills/${open.id}/pay`)).status).toBeLessThan(300);
    for (const kind of Object.keys(ABSENT_NOT_NULL))
      served[kind] = await allPages(h.api, `/${kind}?page_size=100`);
  });
  afterAll(async () => {
    await h.stub.close();
  });

  for (const kind of Object.keys(ABSENT_NOT_NULL)) {
    it(`F36: no ${kind} field that the published copies keep non-null is sent as null`, () => {
      expect(served[kind]!.length).toBeGreaterThan(0);
      const nulls = new Set(served[kind]!.flatMap((o) => nullPaths(o)));
      expect(ABSENT_NOT_NULL[kind]!.filter((path) => nulls.has(path))).toEqual([]);
    });
  }

  it('F36: every field selection of every kind names its provider as a string', () => {
    const selections = Object.values(served).flat().flatMap(selectionsOf);
    expect(selections.length).toBeGreaterThan(0);
    for (const s of selections) expect(s.provider_name).toBe('Tryton');
  });

  it('F36: a selection of an item without a code has no external_code, and a coded one keeps its code', () => {
    const selections = served.transactions!.flatMap(selectionsOf);
    const uncoded = selections.filter((s) => s.external_id === 'F36-GL');
    expect(uncoded.length).toBeGreaterThan(0);
    for (const s of uncoded) expect('external_code' in s).toBe(false);
    const withCode = selections.filter((s) => s.external_id === 'F36-GL-CODED');
    expect(withCode.length).toBeGreaterThan(0);
    for (const s of withCode) expect(s.external_code).toBe('6100');
  });

  it('F38: every paid bill payment carries the key id', () => {
    const paid = served.bills!.filter((b) => b.status === 'PAID');
    expect(paid.length).toBeGreaterThan(0);
    for (const b of paid) {
      expect(b.payment).not.toBeNull();
      expect('id' in b.payment).toBe(true);
      expect(b.payment.id === null || typeof b.payment.id === 'string').toBe(true);
    }
  });

  it('F37: fields the published copies make nullable are still sent, as null when empty', () => {
    const open = served.bills!.filter((b) => b.status === 'OPEN');
    expect(open.length).toBeGreaterThan(0);
    for (const b of open) {
      expect(b.paid_at).toBeNull();
      expect('remote_id' in b && 'deep_link_url' in b).toBe(true);
    }
    for (const r of served.reimbursements!) {
      for (const key of ['employee_id', 'memo', 'merchant', 'trip_id']) expect(key in r).toBe(true);
    }
    for (const t of served.transactions!) {
      for (const key of ['trip_id', 'trip_name', 'merchant_location']) expect(key in t).toBe(true);
    }
  });
});
