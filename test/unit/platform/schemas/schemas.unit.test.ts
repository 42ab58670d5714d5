import { validationError } from '@ledgersync/stub';
import { describe, expect, it } from 'vitest';
import { currencyExponent, toMajorUnits, toMinorUnits } from '../../../../src/money.ts';
import {
  CreateConnectionRequest,
  GlAccount,
  UploadGlAccountsRequest,
} from '../../../../src/platform/schemas/accounting.ts';
import { TokenRequest } from '../../../../src/platform/schemas/auth.ts';
import { ErrorBody, pageOf } from '../../../../src/platform/schemas/common.ts';
import { Transaction } from '../../../../src/platform/schemas/objects.ts';
import { SyncRequest } from '../../../../src/platform/schemas/syncs.ts';

/** The shared zod schemas: strict requests (F5), tolerant responses. */
describe('platform schemas', () => {
  it('F5: request schemas refuse unknown fields; the stub names them in additional_info', () => {
    const input = { gl_accounts: [{ id: 'a', name: 'A', classification: 'EXPENSE', colour: 'red' }] };
    const result = UploadGlAccountsRequest.safeParse(input);
    expect(result.success).toBe(false);
    if (!result.success) {
      const err = validationError(result.error, input, 'body');
      expect(err.code).toBe('DEVELOPER_7001');
      expect(err.additionalInfo.unknown_fields).toEqual(['gl_accounts.0.colour']);
      expect(err.additionalInfo.items).toEqual([{ list: 'gl_accounts', index: 0, id: 'a' }]);
    }
  });

  it('F8: code "" is a valid GL account code; the list is 1..500', () => {
    expect(
      UploadGlAccountsRequest.safeParse({
        gl_accounts: [{ id: 'a', name: 'A', classification: 'ANY', code: '' }],
      }).success,
    ).toBe(true);
    expect(UploadGlAccountsRequest.safeParse({ gl_accounts: [] }).success).toBe(false);
  });

  it('response schemas tolerate (and strip) extra fields', () => {
    const parsed = GlAccount.parse({
      id: 'a',
      svc_id: 's',
      name: 'A',
      code: null,
      classification: 'EXPENSE',
      is_active: true,
      visibility: 'VISIBLE',
      brand_new_field: 1,
    });
    expect('brand_new_field' in parsed).toBe(false);
    expect(pageOf(GlAccount).safeParse({ data: [], page: { next: null }, extra: true }).success).toBe(true);
    expect(ErrorBody.safeParse({ error_v2: { error_code: 'DEVELOPER_9999', message: 'm' } }).success).toBe(
      true,
    );
  });

  it('F14: flat {id, message} failed items, empty lists and >5000 items are refused', () => {
    const base = { idempotency_key: 'k', sync_type: 'TRANSACTION_SYNC' };
    expect(SyncRequest.safeParse({ ...base, failed_syncs: [{ id: 'a', message: 'm' }] }).success).toBe(false);
    expect(
      SyncRequest.safeParse({ ...base, failed_syncs: [{ id: 'a', error: { message: 'm' } }] }).success,
    ).toBe(true);
    expect(SyncRequest.safeParse({ ...base, successful_syncs: [] }).success).toBe(false);
    const many = Array.from({ length: 5001 }, (_, i) => ({ id: `${i}`, reference_id: 'r' }));
    expect(SyncRequest.safeParse({ ...base, successful_syncs: many }).success).toBe(false);
  });

  it('F1: token requests accept client credentials in the body; other grant types are refused', () => {
    expect(
      TokenRequest.safeParse({ grant_type: 'client_credentials', client_id: 'a', client_secret: 'b' })
        .success,
    ).toBe(true);
    expect(TokenRequest.safeParse({ grant_type: 'password' }).success).toBe(false);
  });

  it('F6: a connection request is strict too', () => {
    expect(CreateConnectionRequest.safeParse({ remote_provider_name: 'X', colour: 1 }).success).toBe(false);
  });

  it('docs/platform.md G1: minor-unit rules (JPY 0, USD 2, KWD 3 decimals)', () => {
    expect(currencyExponent('JPY')).toBe(0);
    expect(currencyExponent('usd')).toBe(2);
    expect(currencyExponent('KWD')).toBe(3);
    expect(toMajorUnits(12345, 'KWD')).toBe(12.345);
    expect(toMajorUnits(-1234, 'USD')).toBe(-12.34);
    expect(toMinorUnits(0.29, currencyExponent('USD'))).toBe(29);
    expect(toMinorUnits(1500, currencyExponent('JPY'))).toBe(1500);
  });

  it('F16: a transaction without the F17 field parses; with it, it is kept', () => {
    const txn = {
      id: 't',
      amount: 1,
      currency_code: 'USD',
      entity_id: null,
      merchant_name: 'M',
      user_transaction_time: '2024-01-01T00:00:00Z',
      memo: null,
      accounting_field_selections: [],
      line_items: [],
      sync_status: 'SYNC_READY',
    };
    expect(Transaction.parse(txn).requires_accounting_vendor_creation_to_sync).toBeUndefined();
    expect(
      Transaction.parse({ ...txn, requires_accounting_vendor_creation_to_sync: true })
        .requires_accounting_vendor_creation_to_sync,
    ).toBe(true);
  });
});
