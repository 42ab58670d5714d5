import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../src/canonical-json.ts';
import { IdempotencyConflictError, NetworkError, PlatformError } from '../../../src/platform/errors.ts';
import type { PlatformRequest, PlatformResponse } from '../../../src/platform/http-transport.ts';
import {
  bodyHash,
  type IdempotencyRecord,
  type IdempotencyRecords,
} from '../../../src/platform/idempotency.ts';
import { sendIdempotent } from '../../../src/platform/idempotent-send.ts';

class MemoryRecords implements IdempotencyRecords {
  readonly map = new Map<string, IdempotencyRecord>();
  async get(key: string) {
    return this.map.get(key) ?? null;
  }
  async remember(key: string, hash: string) {
    if (!this.map.has(key)) this.map.set(key, { bodyHash: hash });
  }
  async saveResponse(key: string, response: unknown) {
    const record = this.map.get(key);
    if (record) record.response = response;
  }
}

const body = {
  idempotency_key: 'k1',
  sync_type: 'TRANSACTION_SYNC',
  successful_syncs: [{ id: 't1', reference_id: 'r1' }],
};
const request: PlatformRequest = { method: 'POST', path: '/accounting/syncs', body };
const answer = { sync_id: 's1', results: [{ id: 't1', status: 'SYNCED' }] };

function error7005(afterUncertainAttempt: boolean) {
  return new PlatformError({
    status: 400,
    code: 'DEVELOPER_7005',
    message: 'idempotency key already used',
    traceId: 'tr-5',
    retryable: false,
    afterUncertainAttempt,
  });
}

const ok = async (): Promise<PlatformResponse> => ({ status: 201, body: answer, traceId: 't', attempts: 1 });

describe('sendIdempotent (docs/platform.md F15)', () => {
  it('remembers the body hash before sending and the first answer after', async () => {
    const records = new MemoryRecords();
    let seenRecord: IdempotencyRecord | undefined;
    const result = await sendIdempotent(
      async () => {
        seenRecord = { ...records.map.get('k1')! };
        return ok();
      },
      records,
      'k1',
      request,
    );
    expect(seenRecord).toEqual({ bodyHash: bodyHash(body) });
    expect(result).toEqual({ alreadyApplied: false, body: answer, traceId: 't' });
    expect(records.map.get('k1')).toEqual({ bodyHash: bodyHash(body), response: answer });
  });

  it('F15: 7005 after a lost response to this same body is "already applied", not an error', async () => {
    const records = new MemoryRecords();
    const result = await sendIdempotent(async () => Promise.reject(error7005(true)), records, 'k1', request);
    expect(result).toEqual({ alreadyApplied: true, body: null, traceId: 'tr-5' });
  });

  it('F15: 7005 for a key sent before with the same body recovers the recorded answer', async () => {
    const records = new MemoryRecords();
    records.map.set('k1', { bodyHash: bodyHash(body) });
    const first = await sendIdempotent(async () => Promise.reject(error7005(false)), records, 'k1', request);
    expect(first).toMatchObject({ alreadyApplied: true, body: null });
    records.map.get('k1')!.response = answer;
    let sent = 0;
    const second = await sendIdempotent(
      async () => {
        sent++;
        return ok();
      },
      records,
      'k1',
      request,
    );
    expect(second).toEqual({ alreadyApplied: true, body: answer, traceId: null });
    expect(sent).toBe(0);
  });

  it('F15: 7005 for a key first sent with another body is a permanent IdempotencyConflictError', async () => {
    const records = new MemoryRecords();
    records.map.set('k1', { bodyHash: bodyHash({ other: true }) });
    const run = sendIdempotent(async () => Promise.reject(error7005(true)), records, 'k1', request);
    await expect(run).rejects.toBeInstanceOf(IdempotencyConflictError);
    await expect(run).rejects.toMatchObject({ retryable: false, traceId: 'tr-5' });
    expect(records.map.get('k1')!.bodyHash).toBe(bodyHash({ other: true }));
  });

  it('F15: 7005 on the very first send of a key never seen is a conflict (someone else used it)', async () => {
    const records = new MemoryRecords();
    await expect(
      sendIdempotent(async () => Promise.reject(error7005(false)), records, 'k1', request),
    ).rejects.toBeInstanceOf(IdempotencyConflictError);
  });

  it('passes other errors on unchanged', async () => {
    const records = new MemoryRecords();
    const network = new NetworkError({
      status: null,
      code: null,
      message: 'reset',
      traceId: null,
      retryable: true,
    });
    await expect(sendIdempotent(async () => Promise.reject(network), records, 'k1', request)).rejects.toBe(
      network,
    );
  });

  it('hashes canonical JSON: key order does not matter', () => {
    expect(canonicalJson({ b: 1, a: [{ d: 2, c: undefined }] })).toBe('{"a":[{"d":2}],"b":1}');
    expect(bodyHash({ a: 1, b: 2 })).toBe(bodyHash({ b: 2, a: 1 }));
  });
});
