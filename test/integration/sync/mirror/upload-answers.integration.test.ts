import { describe, expect, it } from 'vitest';
import type { GlAccount as ErpGlAccount } from '../../../../src/erp/index.ts';
import type { Uploaded } from '../../../../src/platform/index.ts';
import { okValues } from '../../../../src/platform/index.ts';
import type { ChartPlatform } from '../../../../src/sync/mirror/types.ts';
import { chartDifferences } from './support/compare.ts';
import { arrivalMark, arrivalsSince, writes } from './support/effects.ts';
import { type Ledger, useMirrorHarness } from './support/harness.ts';

const h = useMirrorHarness({ rateLimit: false });

interface StubItem {
  id: string;
  svc_id: string;
  name: string;
  is_active: boolean;
}

interface StubItems {
  gl_accounts: StubItem[];
  vendors: StubItem[];
}

async function stubItems(connectionId: string): Promise<StubItems> {
  return h.control<StubItems>('GET', `/__stub/chart?accounting_connection_id=${connectionId}`);
}

/** id_map as "kind remote_id → svc_id" (null: a row without a platform id). */
async function idMap(connectionId: string): Promise<Record<string, string | null>> {
  const rows = await h.db.sql<{ kind: string; remote_id: string; svc_id: string | null }[]>`
    select kind, remote_id, svc_id from id_map where connection_id = ${connectionId} order by kind, remote_id`;
  return Object.fromEntries(rows.map((r) => [`${r.kind} ${r.remote_id}`, r.svc_id]));
}

function account(id: string): ErpGlAccount {
  return {
    id,
    code: id.slice(3),
    name: `Account ${id}`,
    classification: 'EXPENSE',
    active: true,
    hidden: false,
  };
}

async function ledgerWith(accountIds: string[]): Promise<Ledger> {
  const ledger = await h.newLedger();
  await ledger.write.accounts(accountIds.map(account));
  await ledger.write.vendors([{ id: 'ven-1', name: 'Vendor one', code: 'V1', active: true }]);
  return ledger;
}

/**
 * An upload as a faulty platform would answer it, over the real stub: `lost` items are left out of
 * the request (the 201 creates nothing for them), `unanswered` ones are created but left out of
 * the answer, and `foreign` items (someone else's, not sent) are added to it (docs/platform.md F41).
 */
function answering<B, T extends { id: string }>(
  upload: (body: B) => Promise<Uploaded<T>>,
  listKey: string,
  fault: { foreign?: readonly T[]; unanswered?: readonly string[]; lost?: readonly string[] },
): (body: B) => Promise<Uploaded<T>> {
  const lost = new Set(fault.lost ?? []);
  const left = new Set([...lost, ...(fault.unanswered ?? [])]);
  return async (body) => {
    const sent = (body as Record<string, Array<{ id: string }>>)[listKey]!;
    const answer = await upload({ ...body, [listKey]: sent.filter((i) => !lost.has(i.id)) });
    const kept = answer.items.filter((r) => !(r.ok && left.has(r.value.id)));
    const foreign = (fault.foreign ?? []).map((value) => ({ ok: true as const, value }));
    return { ...answer, items: [...kept, ...foreign] };
  };
}

describe('upload answers (docs/platform.md F41): only what the answer confirms is recorded', () => {
  it('F41: an upload answer naming items not sent records none of them, and the next run neither DELETEs nor PATCHes them', async () => {
    const ledger = await ledgerWith(['gl-1000', 'gl-2000']);
    const connectionId = await h.newConnection();
    // Someone else's chart items on the same connection.
    const target = { accounting_connection_id: connectionId };
    const chart = h.client.chart;
    const theirAccounts = await chart.uploadGlAccounts({
      ...target,
      gl_accounts: [{ id: 'their-gl', name: 'Their account', classification: 'EXPENSE', code: 'T1' }],
    });
    const theirVendors = await chart.uploadVendors({
      ...target,
      vendors: [{ id: 'their-ven', name: 'Their vendor' }],
    });
    const platform: ChartPlatform = {
      chart: {
        ...chart,
        uploadGlAccounts: answering(chart.uploadGlAccounts, 'gl_accounts', {
          foreign: okValues(theirAccounts.items),
        }),
        uploadVendors: answering(chart.uploadVendors, 'vendors', { foreign: okValues(theirVendors.items) }),
      },
    };

    const first = await h.mirror(ledger, connectionId, { kinds: ['gl_account', 'vendor'] }, { platform });
    expect(first.kinds.gl_account.created).toBe(2);
    expect(first.kinds.vendor.created).toBe(1);
    expect(Object.keys(await idMap(connectionId))).toEqual([
      'gl_account gl-1000',
      'gl_account gl-2000',
      'vendor ven-1',
    ]);

    const mark = await arrivalMark(h);
    const second = await h.mirror(ledger, connectionId, { kinds: ['gl_account', 'vendor'] });
    expect(writes((await arrivalsSince(h, mark)).arrivals)).toEqual([]);
    expect(second.kinds.gl_account.deactivated + second.kinds.vendor.deactivated).toBe(0);
    const after = await stubItems(connectionId);
    expect(after.gl_accounts.find((a) => a.id === 'their-gl')).toMatchObject({
      name: 'Their account',
      is_active: true,
    });
    expect(after.vendors.find((v) => v.id === 'their-ven')).toMatchObject({
      name: 'Their vendor',
      is_active: true,
    });
  });

  it('F41: items sent but left out of the answer are recorded when the list shows them, reported and sent again when not', async () => {
    const ledger = await ledgerWith(['gl-1000', 'gl-2000', 'gl-3000']);
    const connectionId = await h.newConnection();
    const chart = h.client.chart;
    const platform: ChartPlatform = {
      chart: {
        ...chart,
        uploadGlAccounts: answering(chart.uploadGlAccounts, 'gl_accounts', {
          unanswered: ['gl-2000'],
          lost: ['gl-3000'],
        }),
      },
    };

    const first = await h.mirror(ledger, connectionId, { kinds: ['gl_account'] }, { platform });
    expect(first.kinds.gl_account.created).toBe(2);
    expect(first.kinds.gl_account.failed).toEqual([
      expect.objectContaining({
        remoteId: 'gl-3000',
        action: 'create',
        reason: expect.stringMatching(/not recorded/),
      }),
    ]);
    const onPlatform = new Map((await stubItems(connectionId)).gl_accounts.map((a) => [a.id, a.svc_id]));
    expect(onPlatform.has('gl-3000')).toBe(false);
    expect(await idMap(connectionId)).toEqual({
      'gl_account gl-1000': onPlatform.get('gl-1000'),
      'gl_account gl-2000': onPlatform.get('gl-2000'),
    });

    const second = await h.mirror(ledger, connectionId, { kinds: ['gl_account'] });
    expect(second.kinds.gl_account).toMatchObject({ created: 1, adopted: 0, failed: [] });
    expect((await idMap(connectionId))['gl_account gl-3000']).toEqual(expect.any(String));
  });

  it('F41: a plain answer records every item with the svc_id it gave, without reading the list', async () => {
    const ledger = await ledgerWith(['gl-1000', 'gl-2000']);
    const connectionId = await h.newConnection();
    const summary = await h.mirror(ledger, connectionId, { kinds: ['gl_account', 'vendor'] });
    expect(summary.readCalls).toBe(0);
    expect(summary.kinds.gl_account).toMatchObject({ created: 2, failed: [] });
    const platform = await stubItems(connectionId);
    expect(await idMap(connectionId)).toEqual(
      Object.fromEntries([
        ...platform.gl_accounts.map((a) => [`gl_account ${a.id}`, a.svc_id]),
        ...platform.vendors.map((v) => [`vendor ${v.id}`, v.svc_id]),
      ]),
    );
    expect(
      await chartDifferences(
        await h.control('GET', `/__stub/chart?accounting_connection_id=${connectionId}`),
        ledger.erp,
      ),
    ).toEqual([]);
  });
});
