import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { EXIT, ExpectedFailure } from '../../exit-codes.ts';

/**
 * Tokens at rest (the Authorization Code grant's refresh and access tokens, docs/platform.md F45):
 * AES-256-GCM with TOKEN_ENCRYPTION_KEY. A stored value is `v1.<key id>.<iv>.<tag>.<ciphertext>`
 * (base64url parts); the key id is a digest of the key, so a value names the key it needs without
 * revealing it. Old keys (TOKEN_ENCRYPTION_OLD_KEYS) only decrypt: every write uses the current
 * key, and each worker start and `status` re-encrypt whatever is still under an old key
 * (token-rekey.ts), so an idle grant moves too, and `status` says when the old key may go (README
 * "Running it for a customer", rotating TOKEN_ENCRYPTION_KEY).
 */

/**
 * The stored tokens cannot be read with the configured keys, or a key is not one: a configuration
 * mistake told in one line (README "Exit codes": 78), naming the variables, never a value.
 */
export class TokenKeyError extends ExpectedFailure {
  override readonly exitCode = EXIT.config;
  constructor(message: string) {
    super(message);
    this.name = 'TokenKeyError';
  }
}

const KEY_BYTES = 32;
const IV_BYTES = 12;
const VERSION = 'v1';

/** The 32-byte key of a base64 text, or null when it is not one. */
function parseTokenKey(text: string): Buffer | null {
  const trimmed = text.trim();
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed)) return null;
  const key = Buffer.from(trimmed.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  return key.length === KEY_BYTES ? key : null;
}

function keyId(key: Buffer): string {
  return createHash('sha256').update(key).digest('base64url').slice(0, 8);
}

export class TokenCipher {
  private readonly current: { id: string; key: Buffer };
  private readonly byId: Map<string, Buffer>;

  constructor(currentKey: Buffer, oldKeys: readonly Buffer[] = []) {
    this.current = { id: keyId(currentKey), key: currentKey };
    this.byId = new Map([...oldKeys, currentKey].map((k) => [keyId(k), k]));
  }

  /**
   * From the configuration's texts. A missing or malformed key is refused here, before any token
   * is read or written.
   */
  static fromConfig(key: string | undefined, oldKeys: string | undefined): TokenCipher {
    if (!key) {
      throw new TokenKeyError(
        'TOKEN_ENCRYPTION_KEY is not set: the Authorization Code grant stores its tokens encrypted; set it to 32 random bytes in base64 (`openssl rand -base64 32`).',
      );
    }
    const current = parseTokenKey(key);
    if (!current) {
      throw new TokenKeyError(
        'TOKEN_ENCRYPTION_KEY is not 32 bytes in base64 (make one with `openssl rand -base64 32`).',
      );
    }
    const old = (oldKeys ?? '')
      .split(',')
      .map((k) => k.trim())
      .filter(Boolean)
      .map((k, i) => {
        const parsed = parseTokenKey(k);
        if (!parsed)
          throw new TokenKeyError(`TOKEN_ENCRYPTION_OLD_KEYS: key ${i + 1} is not 32 bytes in base64.`);
        return parsed;
      });
    return new TokenCipher(current, old);
  }

  encrypt(plain: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.current.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [VERSION, this.current.id, iv, cipher.getAuthTag(), body]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
  }

  /** The plain text; a TokenKeyError when no configured key opens it. */
  decrypt(stored: string): string {
    const [version, id, iv, tag, body] = stored.split('.');
    const key = id === undefined ? undefined : this.byId.get(id);
    if (version !== VERSION || !key || iv === undefined || tag === undefined || body === undefined) {
      throw new TokenKeyError(
        'the platform tokens stored in the database were encrypted with a key that is neither TOKEN_ENCRYPTION_KEY nor in TOKEN_ENCRYPTION_OLD_KEYS: set the key they were stored with (or run `ledgersync connect` again to store new ones).',
      );
    }
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
        'utf8',
      );
    } catch {
      throw new TokenKeyError(
        'the platform tokens stored in the database do not decrypt with the configured TOKEN_ENCRYPTION_KEY (altered, or a different key of the same id): restore the key they were stored with, or run `ledgersync connect` again.',
      );
    }
  }

  /** True when `stored` was written with a key other than the current one (token-rekey.ts moves it). */
  isStale(stored: string): boolean {
    return stored.split('.')[1] !== this.current.id;
  }

  /** True when some key besides the current one is configured (TOKEN_ENCRYPTION_OLD_KEYS). */
  get hasOldKeys(): boolean {
    return this.byId.size > 1;
  }
}
