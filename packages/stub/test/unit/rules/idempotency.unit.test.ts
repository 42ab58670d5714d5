import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../../../src/canonical-json.ts';
import { ApiError } from '../../../src/core/errors.ts';
import { IdempotencyStore } from '../../../src/rules/idempotency.ts';

/** docs/platform.md F15. */
describe('IdempotencyStore', () => {
  const body = {
    idempotency_key: 'k',
    sync_type: 'TRANSACTION_SYNC',
    successful_syncs: [{ id: 'a', reference_id: 'r' }],
  };

  it('F15: same key, same body replays the stored answer (key order does not matter)', () => {
    const store = new IdempotencyStore();
    expect(store.lookup('k', body, 'replay')).toBeNull();
    store.remember('k', body, 201, { sync_id: 's1' });
    const reordered = {
      successful_syncs: [{ reference_id: 'r', id: 'a' }],
      sync_type: 'TRANSACTION_SYNC',
      idempotency_key: 'k',
    };
    expect(store.lookup('k', reordered, 'replay')).toEqual({ status: 201, body: { sync_id: 's1' } });
  });

  it('F15: same key, different body is DEVELOPER_7005', () => {
    const store = new IdempotencyStore();
    store.remember('k', body, 201, {});
    const other = { ...body, successful_syncs: [{ id: 'b', reference_id: 'r' }] };
    expect(() => store.lookup('k', other, 'replay')).toThrowError(ApiError);
    try {
      store.lookup('k', other, 'replay');
    } catch (err) {
      expect((err as ApiError).code).toBe('DEVELOPER_7005');
      expect((err as ApiError).status).toBe(400);
    }
  });

  it('F15: live mode answers 7005 even to an identical retry', () => {
    const store = new IdempotencyStore();
    store.remember('k', body, 201, {});
    expect(() => store.lookup('k', body, 'error_7005')).toThrowError(/already used/);
  });

  it('canonicalJson sorts keys and drops undefined', () => {
    expect(canonicalJson({ b: 1, a: [{ d: undefined, c: 2 }] })).toBe('{"a":[{"c":2}],"b":1}');
  });
});
