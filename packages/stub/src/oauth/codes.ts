import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { OAuthError } from './oauth-error.ts';

/**
 * Authorization codes (docs/platform.md F44): single use, 60 s on the stub clock, bound to the
 * client, the redirect URI and the PKCE S256 challenge. Codes live only here.
 */

const CODE_TTL_MS = 60_000;

export interface ApprovedConsent {
  clientId: string;
  redirectUri: string;
  scopes: string[];
  /** BASE64URL(SHA256(code_verifier)): every consent carries one (authorize.ts requires PKCE). */
  codeChallenge: string;
  /** When the business approved: an absolute refresh lifetime counts from here (F46). */
  consentAt: number;
}

interface CodeRecord extends ApprovedConsent {
  expiresAt: number;
  used: boolean;
}

/** RFC 7636 S256: BASE64URL(SHA256(ASCII(code_verifier))). */
export function s256(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export class AuthorizationCodes {
  private readonly codes = new Map<string, CodeRecord>();

  constructor(private readonly now: () => number) {}

  issue(consent: ApprovedConsent): string {
    this.sweep();
    const code = randomBytes(32).toString('base64url');
    this.codes.set(code, { ...consent, expiresAt: this.now() + CODE_TTL_MS, used: false });
    return code;
  }

  /** The consent behind a code, once; every refusal is invalid_grant (RFC 6749 5.2). */
  redeem(
    code: string,
    clientId: string,
    redirectUri: string | undefined,
    verifier: string | undefined,
  ): ApprovedConsent {
    const record = this.codes.get(code);
    if (!record || record.clientId !== clientId) throw new OAuthError('invalid_grant', 'unknown code');
    if (record.used) throw new OAuthError('invalid_grant', 'code already used');
    record.used = true;
    if (this.now() >= record.expiresAt) throw new OAuthError('invalid_grant', 'code expired');
    if (redirectUri !== record.redirectUri) {
      throw new OAuthError('invalid_grant', 'redirect_uri differs from the one the code was issued for');
    }
    if (!verifier) throw new OAuthError('invalid_grant', 'code_verifier missing (PKCE)');
    if (!sameText(s256(verifier), record.codeChallenge)) {
      throw new OAuthError('invalid_grant', 'code_verifier does not match the code_challenge (PKCE)');
    }
    return record;
  }

  reset(): void {
    this.codes.clear();
  }

  /** Forgets codes long past their life, so a long run does not pile them up. */
  private sweep(): void {
    const cutoff = this.now() - CODE_TTL_MS;
    for (const [code, record] of this.codes) if (record.expiresAt < cutoff) this.codes.delete(code);
  }
}
