import { describe, expect, it } from 'vitest';
import { diffKind, patchBody, stepFor } from '../../../../src/sync/mirror/diff.ts';
import type { MappedRow } from '../../../../src/sync/mirror/model.ts';
import { item } from './fake-ops.ts';

function row(id: string, over: Partial<MappedRow> = {}): MappedRow {
  return {
    remoteId: id,
    svcId: `svc-${id}`,
    hash: item(id).hash,
    isActive: true,
    visibility: 'VISIBLE',
    failedHash: null,
    lastError: null,
    ...over,
  };
}

const rows = (...list: MappedRow[]) => new Map(list.map((r) => [r.remoteId, r]));
const withVisibility = { visibility: true };

describe('diffKind: ERP items against id_map (docs/platform.md G17, F12)', () => {
  it('plans nothing when the ERP and id_map agree (zero write calls on a re-run)', () => {
    const plan = diffKind([item('a'), item('b')], rows(row('a'), row('b')), withVisibility);
    expect(plan).toMatchObject({
      creates: [],
      changes: [],
      deactivations: [],
      knownFailures: [],
      unchanged: 2,
    });
  });

  it('creates new active items, not new inactive ones', () => {
    const plan = diffKind([item('a'), item('b', { active: false })], rows(), withVisibility);
    expect(plan.creates.map((i) => i.remoteId)).toEqual(['a']);
    expect(plan.unchanged).toBe(1);
  });

  it('patches a renamed item by svc_id', () => {
    const renamed = item('a', { hash: 'other', patch: { value: 'A2', code: '' } });
    const plan = diffKind([renamed], rows(row('a')), withVisibility);
    expect(plan.changes).toHaveLength(1);
    expect(patchBody(plan.changes[0]!)).toEqual({ value: 'A2', code: '' });
  });

  it('deactivates items inactive in the ERP and items gone from it', () => {
    const plan = diffKind([item('a', { active: false })], rows(row('a'), row('gone')), withVisibility);
    expect(plan.deactivations).toEqual([
      { remoteId: 'a', svcId: 'svc-a' },
      { remoteId: 'gone', svcId: 'svc-gone' },
    ]);
  });

  it('leaves already inactive rows alone', () => {
    const plan = diffKind(
      [item('a', { active: false })],
      rows(row('a', { isActive: false }), row('g', { isActive: false })),
      withVisibility,
    );
    expect(plan.deactivations).toEqual([]);
  });

  it('reactivates, renames and unhides in one PATCH', () => {
    const back = item('a', { hash: 'new', patch: { value: 'A3', code: '' } });
    const change = stepFor(back, row('a', { isActive: false, visibility: 'HIDDEN' }), withVisibility);
    expect(change).not.toBeNull();
    expect(patchBody(change as never)).toEqual({
      value: 'A3',
      code: '',
      reactivate: true,
      visibility: 'VISIBLE',
    });
  });

  it('hides an item hidden in the ERP only where the kind has a visibility', () => {
    const hidden = item('a', { hidden: true });
    expect(patchBody(stepFor(hidden, row('a'), withVisibility) as never)).toEqual({ visibility: 'HIDDEN' });
    expect(stepFor(hidden, row('a'), { visibility: false })).toBeNull();
  });

  it('does not resend content the platform refused until the ERP changes it', () => {
    const bad = item('a');
    const refused = rows(
      row('a', { svcId: null, failedHash: bad.hash, lastError: 'rejected by the platform' }),
    );
    expect(diffKind([bad], refused, withVisibility).knownFailures).toEqual([
      { remoteId: 'a', action: 'create', reason: expect.stringMatching(/rejected by the platform/) },
    ]);
    const fixed = item('a', { hash: 'fixed' });
    expect(diffKind([fixed], refused, withVisibility).creates).toEqual([fixed]);
  });

  it('does not resend a refused PATCH until the content changes again', () => {
    const renamed = item('a', { hash: 'h2' });
    const plan = diffKind(
      [renamed],
      rows(row('a', { failedHash: 'h2', lastError: 'too long' })),
      withVisibility,
    );
    expect(plan.knownFailures).toHaveLength(1);
    expect(plan.changes).toHaveLength(0);
  });

  it('ignores a repeated ERP id', () => {
    const plan = diffKind([item('a'), item('a')], rows(), withVisibility);
    expect(plan.creates).toHaveLength(1);
  });
});
