import { describe, expect, it } from 'vitest';
import {
  DirectConnectionError,
  DuplicateUploadError,
  duplicateIdsOf,
  PlatformError,
  platformErrorFor,
  ValidationError,
} from '../../../src/platform/errors.ts';
import { errorFromResponse } from '../../../src/platform/http-attempt.ts';

const request = { method: 'POST', label: '/developer/v1/accounting/accounts' };

function f2Body(code: string, message: string, additional_info: Record<string, unknown> = {}) {
  return { error_v2: { error_code: code, message, additional_info, notes: '' }, error: {} };
}

describe('PlatformError (docs/platform.md F2)', () => {
  it('F2: carries status, code, message and trace id, and names the request', () => {
    const error = errorFromResponse(
      request,
      {
        status: 422,
        body: f2Body('DEVELOPER_7001', 'name is required', { fields: ['name'] }),
        traceId: 'tr-1',
        retryAfter: null,
      },
      false,
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toBeInstanceOf(PlatformError);
    expect(error).toMatchObject({ status: 422, code: 'DEVELOPER_7001', traceId: 'tr-1', retryable: false });
    expect(error.additionalInfo).toEqual({ fields: ['name'] });
    expect(error.message).toContain('tr-1');
    expect(error.message).toContain('POST /developer/v1/accounting/accounts');
  });

  it('F12: a 7020 is a DuplicateUploadError carrying the duplicate ids', () => {
    const error = errorFromResponse(
      request,
      {
        status: 400,
        body: f2Body('DEVELOPER_7020', 'duplicate', { duplicate_ids: ['gl-1', 'gl-2'] }),
        traceId: null,
        retryAfter: null,
      },
      true,
    );
    expect(error).toBeInstanceOf(DuplicateUploadError);
    expect((error as DuplicateUploadError).duplicateIds).toEqual(['gl-1', 'gl-2']);
    expect(error.afterUncertainAttempt).toBe(true);
  });

  it('reads duplicate ids under the other list names too', () => {
    expect(duplicateIdsOf({ ids: [1, 'b'] })).toEqual(['1', 'b']);
    expect(duplicateIdsOf({ duplicates: [{ id: 'x' }] })).toEqual(['x']);
    expect(duplicateIdsOf(null)).toEqual([]);
  });

  it('F2: 7089 is a DirectConnectionError; 5xx and 429 are retryable', () => {
    const direct = errorFromResponse(
      request,
      { status: 400, body: f2Body('DEVELOPER_7089', 'direct connection'), traceId: null, retryAfter: null },
      false,
    );
    expect(direct).toBeInstanceOf(DirectConnectionError);
    const busy = errorFromResponse(
      request,
      { status: 503, body: null, traceId: 't', retryAfter: null },
      false,
    );
    expect(busy.retryable).toBe(true);
    expect(busy.code).toBeNull();
    expect(busy.message).toContain('HTTP 503');
  });

  it('never shows a token or secret in a message', () => {
    const token = 'svc_business_tok_abcdefghijklmnop';
    const error = platformErrorFor({
      status: 401,
      code: 'DEVELOPER_7028',
      message: `token ${token} expired; Bearer ${token}; client_secret=hunter2hunter2`,
      traceId: 'tr',
      retryable: false,
      path: `/x?access_token=${token}`,
    });
    expect(error.message).not.toContain(token);
    expect(error.message).not.toContain('hunter2hunter2');
    expect(error.path).not.toContain(token);
    expect(error.platformMessage).not.toContain(token);
  });
});
