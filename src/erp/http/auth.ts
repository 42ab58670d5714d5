import { createHmac } from 'node:crypto';
import { sameSecret } from '../../secrets.ts';

/**
 * The two ways ledgersync and an HTTP ERP service trust each other (docs/erp-http.md):
 * a bearer token, and/or an HMAC-SHA256 signature of the body under a shared secret that also
 * binds the time, so a captured request cannot be replayed after the tolerance.
 */

export interface HttpErpCredentials {
  token?: string | undefined;
  hmacSecret?: string | undefined;
}

/** How far a signature's time may be from the verifier's clock. */
const SIGNATURE_TOLERANCE_S = 300;

function signatureHex(secret: string, unixSeconds: number, body: string): string {
  return createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
}

/** `t=<unix seconds>,v1=<hex>` over `<t>.<body>` (the body as sent; "" for a GET). */
export function signBody(secret: string, body: string, nowMs: number = Date.now()): string {
  const t = Math.floor(nowMs / 1000);
  return `t=${t},v1=${signatureHex(secret, t, body)}`;
}

/** The headers a request carries for the configured credentials. */
export function authHeaders(credentials: HttpErpCredentials, body: string): Record<string, string> {
  const headers: Record<string, string> = {};
  if (credentials.token) headers.authorization = `Bearer ${credentials.token}`;
  if (credentials.hmacSecret) headers['x-ledgersync-signature'] = signBody(credentials.hmacSecret, body);
  return headers;
}

/**
 * Why a request is refused, or null when every configured credential checks out. The reason
 * names what failed, never a value.
 */
export function refusalOf(
  credentials: HttpErpCredentials,
  headers: { authorization?: string | undefined; signature?: string | undefined },
  body: string,
  nowMs: number = Date.now(),
): string | null {
  if (credentials.token) {
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? '')?.[1];
    if (!bearer || !sameSecret(bearer, credentials.token)) return 'missing or wrong bearer token';
  }
  if (credentials.hmacSecret) {
    const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(headers.signature?.trim() ?? '');
    if (!match) return 'missing or malformed X-Ledgersync-Signature';
    const t = Number(match[1]);
    if (Math.abs(nowMs / 1000 - t) > SIGNATURE_TOLERANCE_S) return 'signature time outside the tolerance';
    if (!sameSecret(match[2]!, signatureHex(credentials.hmacSecret, t, body))) return 'wrong signature';
  }
  return null;
}
