import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Masks secret-shaped text wherever it appears: platform tokens, bearer and basic credentials,
 * secret-named query or form fields, and the password in a URL's user info (REDIS_URL,
 * DATABASE_URL). Used by the logger and by every error message that may quote a request or a
 * connection, so a token or password never reaches a log line, an error or a snapshot.
 */
const PATTERNS: Array<[RegExp, string]> = [
  // Platform tokens and refresh tokens (docs/platform.md G6).
  [/\bsvc_(?:business|user)_(?:tok|jwt)_[A-Za-z0-9._-]+/g, 'svc_[redacted]'],
  [/\bsvc_tok_[A-Za-z0-9._-]+/g, 'svc_[redacted]'],
  // scheme://user:password@host: the password goes, the user and the host stay readable.
  [/\b([a-z][a-z0-9+.-]*:\/\/[^\s:@/]*):[^\s@/]*@/gi, '$1:[redacted]@'],
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, '$1 [redacted]'],
  [/\b(client_secret|access_token|refresh_token|secret|password|token)=([^&\s"']+)/gi, '$1=[redacted]'],
  [
    /("(?:client_secret|access_token|refresh_token|secret|password|webhook_secret|operator_token)"\s*:\s*)"[^"]*"/gi,
    '$1"[redacted]"',
  ],
];

// Card numbers (15-19 digits, optionally grouped, Luhn-valid): never logged (docs/platform.md
// G33). 13-digit millisecond timestamps are left alone on purpose.
const CARD_CANDIDATE = /\b(?:\d[ -]?){14,18}\d\b/g;

function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

export function scrubString(text: string): string {
  let out = text;
  for (const [pattern, replacement] of PATTERNS) out = out.replace(pattern, replacement);
  return out.replace(CARD_CANDIDATE, (m) => (luhnValid(m.replace(/[ -]/g, '')) ? '[card-redacted]' : m));
}

/**
 * Redis commands whose arguments carry credentials. ioredis puts the failed command on its
 * errors (`command: {name: 'hello', args: ['3', 'AUTH', user, password]}`), so a refused
 * password would otherwise be logged with the error.
 */
const CREDENTIAL_COMMANDS = new Set(['auth', 'hello', 'acl', 'config', 'migrate']);

function isCredentialCommand(value: Record<string, unknown>): boolean {
  return (
    typeof value.name === 'string' &&
    Array.isArray(value.args) &&
    CREDENTIAL_COMMANDS.has(value.name.toLowerCase())
  );
}

/** Returns a copy of value with every string scrubbed; leaves non-plain objects' identity alone. */
export function scrubSecrets(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return scrubString(value);
  if (depth > 8 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => scrubSecrets(v, depth + 1));
  if (value instanceof Error) {
    const copy: Record<string, unknown> = { type: value.name, message: scrubString(value.message) };
    if (value.stack) copy.stack = scrubString(value.stack);
    for (const [k, v] of Object.entries(value)) copy[k] = scrubSecrets(v, depth + 1);
    if (value.cause !== undefined && !('cause' in copy)) copy.cause = scrubSecrets(value.cause, depth + 1);
    return copy;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = scrubSecrets(v, depth + 1);
  if (isCredentialCommand(value as Record<string, unknown>)) out.args = ['[redacted]'];
  return out;
}

/** Constant-time comparison; hashing first gives equal lengths, so the time never reveals a secret's length. */
export function sameSecret(a: string, b: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(a), digest(b));
}
