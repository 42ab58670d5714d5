import { describe, expect, it } from 'vitest';
import { PlatformError, ValidationError } from '../../../../src/platform/index.ts';
import {
  applyLifecycle,
  type LifecycleSink,
  type LifecycleStep,
} from '../../../../src/sync/mirror/lifecycle.ts';
import { fakeOps, item } from './fake-ops.ts';

function recordingSink() {
  const out = { applied: [] as unknown[], refused: [] as string[], missing: [] as string[] };
  const sink: LifecycleSink = {
    applied: async (_step, row) => void out.applied.push(row),
    refused: async (_step, reason) => void out.refused.push(reason),
    missing: async (_step, reason) => void out.missing.push(reason),
    beforeCall: () => {},
  };
  return { out, sink };
}

const change = (
  id: string,
  over: Partial<Extract<LifecycleStep, { type: 'change' }>['change']> = {},
): LifecycleStep => ({
  type: 'change',
  change: {
    item: item(id, { hidden: true }),
    svcId: `svc-${id}`,
    content: false,
    reactivate: false,
    visibility: 'HIDDEN',
    ...over,
  },
});

describe('applyLifecycle (docs/platform.md G17, F12)', () => {
  it('PATCHes by svc_id and DELETEs to deactivate, recording the resulting state', async () => {
    const { ops, calls } = fakeOps();
    const { out, sink } = recordingSink();
    await applyLifecycle(
      ops,
      [change('a'), { type: 'deactivate', deactivation: { remoteId: 'b', svcId: 'svc-b' } }],
      sink,
    );
    expect(calls.patch).toEqual([['svc-a', { visibility: 'HIDDEN' }]]);
    expect(calls.remove).toEqual(['svc-b']);
    expect(out.applied).toContainEqual({
      remoteId: 'a',
      svcId: 'svc-a',
      isActive: true,
      hash: item('a').hash,
      visibility: 'HIDDEN',
    });
    expect(out.applied).toContainEqual({ remoteId: 'b', svcId: 'svc-b', isActive: false });
  });

  it('reports a 422 and a 404 per item and goes on', async () => {
    const { ops } = fakeOps();
    ops.patch = async (svcId) => {
      const init = { message: `nope ${svcId}`, traceId: null, retryable: false };
      if (svcId === 'svc-a') throw new ValidationError({ ...init, status: 422, code: 'DEVELOPER_7001' });
      throw new PlatformError({ ...init, status: 404, code: 'DEVELOPER_7404' });
    };
    const { out, sink } = recordingSink();
    await applyLifecycle(ops, [change('a'), change('b')], sink);
    expect(out.refused).toEqual(['nope svc-a']);
    expect(out.missing).toEqual(['nope svc-b']);
  });

  it('refuses without a call when the kind has no such operation', async () => {
    const { ops } = fakeOps();
    delete ops.remove;
    const { out, sink } = recordingSink();
    await applyLifecycle(
      ops,
      [{ type: 'deactivate', deactivation: { remoteId: 'b', svcId: 'svc-b' } }],
      sink,
    );
    expect(out.refused[0]).toMatch(/no deactivation/);
  });

  it("stops on an error that is not the item's own", async () => {
    const { ops } = fakeOps();
    let calls = 0;
    ops.patch = async () => {
      calls++;
      throw new PlatformError({ status: 503, code: null, message: 'down', traceId: null, retryable: true });
    };
    const steps = Array.from({ length: 50 }, (_, i) => change(`x${i}`));
    await expect(applyLifecycle(ops, steps, recordingSink().sink, 4)).rejects.toThrow('down');
    expect(calls).toBeLessThanOrEqual(4);
  });
});
