import { describe, expect, it } from 'vitest';
import type { DesiredItem, RemoteItem } from '../../../../src/sync/mirror/model.ts';
import { type UploadSink, uploadInBatches } from '../../../../src/sync/mirror/upload-batches.ts';
import { fakeOps, item, items } from './fake-ops.ts';

function sink() {
  const out = {
    created: [] as RemoteItem[],
    adopted: [] as RemoteItem[],
    refused: [] as Array<{ item: DesiredItem; reason: string }>,
    waiting: [] as Array<{ item: DesiredItem; reason: string }>,
    ignored: [] as RemoteItem[],
  };
  const s: UploadSink = {
    created: async (r) => void out.created.push(...r),
    adopted: async (r) => void out.adopted.push(...r),
    refused: async (r) => void out.refused.push(...r),
    waiting: (r) => void out.waiting.push(...r),
    ignored: (r) => void out.ignored.push(...r),
    beforeCall: () => {},
  };
  return { out, s };
}

describe('uploadInBatches (docs/platform.md G9: 500 per call, all-or-nothing)', () => {
  it('sends 2,000 good items in 4 calls', async () => {
    const { ops, calls } = fakeOps();
    const { out, s } = sink();
    await uploadInBatches(ops, items(2000), s);
    expect(calls.upload).toBe(4);
    expect(out.created).toHaveLength(2000);
  });

  it('isolates 3 unnamed bad items in different batches by halving: at most 4 + 3 × 18 calls', async () => {
    const all = items(2000);
    const bad = [all[17]!.remoteId, all[777]!.remoteId, all[1999]!.remoteId];
    const { ops, calls } = fakeOps({ reject: bad, names: false });
    const { out, s } = sink();
    await uploadInBatches(ops, all, s);
    expect(out.created).toHaveLength(1997);
    expect(out.refused.map((r) => r.item.remoteId).sort()).toEqual([...bad].sort());
    expect(calls.upload).toBeLessThanOrEqual(4 + 3 * 18);
    expect(calls.upload).toBeGreaterThan(4 + 3);
  });

  it('drops exactly the items a 422 names and resends at once: 4 + 3 calls', async () => {
    const all = items(2000);
    const bad = [all[3]!.remoteId, all[600]!.remoteId, all[1500]!.remoteId];
    const { ops, calls } = fakeOps({ reject: bad, names: true });
    const { out, s } = sink();
    await uploadInBatches(ops, all, s);
    expect(out.created).toHaveLength(1997);
    expect(calls.upload).toBe(7);
    expect(out.refused.every((r) => r.reason === 'rejected by the platform')).toBe(true);
  });

  it('refuses schema-invalid items before any call', async () => {
    const { ops, calls } = fakeOps();
    const { out, s } = sink();
    const bad = item('x', { upload: { id: 'x', value: '' } });
    await uploadInBatches(ops, [bad, item('y')], s);
    expect(calls.upload).toBe(1);
    expect(out.refused[0]!.reason).toMatch(/not sent, invalid: value/);
  });

  it('reports items with a problem without sending or recording them', async () => {
    const { ops, calls } = fakeOps();
    const { out, s } = sink();
    await uploadInBatches(ops, [item('x', { problem: 'its GL account 4000 is not on the platform' })], s);
    expect(calls.upload).toBe(0);
    expect(out.waiting[0]!.reason).toMatch(/GL account 4000/);
  });

  it('adopts what the platform already holds after DEVELOPER_7020 and sends the rest (F12)', async () => {
    const all = items(1200);
    // A crash after the second batch was applied but before it was recorded.
    const held = all.slice(500, 1000).map((i) => i.remoteId);
    const { ops, calls, store } = fakeOps({ held });
    const { out, s } = sink();
    await uploadInBatches(ops, all, s);
    expect(out.adopted.map((a) => a.remoteId)).toEqual(held);
    expect(out.created).toHaveLength(700);
    expect(store.size).toBe(1200);
    expect(calls.list).toBe(1);
    expect(calls.upload).toBe(3); // batch 1, batch 2 (7020, then wholly adopted), batch 3
  });

  it('adopts a partly applied batch and resends only the missing items', async () => {
    const all = items(500);
    const { ops, calls } = fakeOps({ held: all.slice(0, 10).map((i) => i.remoteId) });
    const { out, s } = sink();
    await uploadInBatches(ops, all, s);
    expect(out.adopted).toHaveLength(10);
    expect(out.created).toHaveLength(490);
    expect(calls.upload).toBe(2);
  });

  it('refuses a duplicate the connection list does not show, and sends the rest', async () => {
    const all = items(10);
    const { ops, store } = fakeOps({ held: [all[4]!.remoteId] });
    const hidden = all[4]!.remoteId;
    const list = ops.list;
    ops.list = async function* () {
      for await (const r of list()) if (r.remoteId !== hidden) yield r;
    };
    const { out, s } = sink();
    await uploadInBatches(ops, all, s);
    expect(out.refused.map((r) => r.item.remoteId)).toEqual([hidden]);
    expect(out.refused[0]!.reason).toMatch(/DEVELOPER_7020/);
    expect(out.created).toHaveLength(9);
    expect(store.size).toBe(10);
  });

  it("rethrows errors that are not an item's fault", async () => {
    const { ops } = fakeOps();
    ops.upload = async () => {
      throw new Error('socket hang up');
    };
    await expect(uploadInBatches(ops, items(3), sink().s)).rejects.toThrow('socket hang up');
  });
});

describe('uploadInBatches: only what the answer confirms is created (docs/platform.md F41)', () => {
  it('F41: an upload answer naming items not sent records none of them', async () => {
    const { ops, calls } = fakeOps({ foreign: ['theirs-1', 'theirs-2'] });
    const { out, s } = sink();
    await uploadInBatches(ops, items(3), s);
    expect(out.created.map((r) => r.remoteId)).toEqual(['opt-00000', 'opt-00001', 'opt-00002']);
    expect(out.adopted).toEqual([]);
    expect(out.ignored.map((r) => r.remoteId)).toEqual(['theirs-1', 'theirs-2']);
    expect(calls.list).toBe(0); // every item sent was confirmed: nothing to look up
  });

  it('F41: items sent but not in the answer are recorded only when the list shows them', async () => {
    const all = items(5);
    const [, answeredLate, , lostOne] = all.map((i) => i.remoteId);
    const { ops, calls } = fakeOps({ unanswered: [answeredLate!], lost: [lostOne!] });
    const { out, s } = sink();
    await uploadInBatches(ops, all, s);
    expect(out.created.map((r) => r.remoteId).sort()).toEqual(
      all.map((i) => i.remoteId).filter((id) => id !== lostOne),
    );
    expect(calls.list).toBe(1);
    expect(out.waiting.map((w) => w.item.remoteId)).toEqual([lostOne]);
    expect(out.waiting[0]!.reason).toMatch(/not recorded, sent again on the next run/);
  });

  it('F41: a one-item upload answered with another item records neither as created', async () => {
    const { ops } = fakeOps({ foreign: ['theirs'], lost: ['mine'] });
    const { out, s } = sink();
    await uploadInBatches(ops, [item('mine')], s);
    expect(out.created).toEqual([]);
    expect(out.ignored.map((r) => r.remoteId)).toEqual(['theirs']);
    expect(out.waiting.map((w) => w.item.remoteId)).toEqual(['mine']);
  });
});
