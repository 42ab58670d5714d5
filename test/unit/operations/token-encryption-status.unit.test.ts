import { describe, expect, it } from 'vitest';
import { tokenEncryptionLine } from '../../../src/operations/format-status.ts';

/** README "Running it for a customer", rotating TOKEN_ENCRYPTION_KEY: what `status` says of it. */
describe('README key rotation: the status line', () => {
  it('README key rotation: with old keys set and nothing left under them, the old keys may be removed', () => {
    expect(tokenEncryptionLine({ reencrypted: 2, needOldKey: 0, oldKeys: true })).toBe(
      'Token encryption: every stored token is under TOKEN_ENCRYPTION_KEY (2 re-encrypted just now); TOKEN_ENCRYPTION_OLD_KEYS may be removed once every process runs with this TOKEN_ENCRYPTION_KEY.',
    );
  });

  it('README key rotation: values still under another key are counted, with what moves them and to keep the old keys', () => {
    const line = tokenEncryptionLine({ reencrypted: 0, needOldKey: 3, oldKeys: true });
    expect(line).toMatch(
      /^Token encryption: 3 stored values still under another key than TOKEN_ENCRYPTION_KEY /,
    );
    expect(line).toContain('each worker start and `ledgersync status` re-encrypt them');
    expect(line).toContain('keep TOKEN_ENCRYPTION_OLD_KEYS');
    expect(line).not.toContain('may be removed');
    expect(tokenEncryptionLine({ reencrypted: 0, needOldKey: 1, oldKeys: true })).toContain(
      '1 stored value still',
    );
  });

  it('README key rotation: without old keys and nothing under another key, nothing is said', () => {
    expect(tokenEncryptionLine({ reencrypted: 0, needOldKey: 0, oldKeys: false })).toBeNull();
  });
});
