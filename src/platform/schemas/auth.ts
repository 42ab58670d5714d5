import { z } from 'zod';

/** docs/platform.md F1 and G5: the client-credentials token call. */

/** Access tokens issued by client credentials start with this (docs/platform.md G6). */
export const BUSINESS_TOKEN_PREFIX = 'svc_business_tok_';

/** Client-credentials lifetime when the client is not configured otherwise (docs/platform.md G9). */
export const DEFAULT_TOKEN_TTL_S = 864_000;

/**
 * Body of POST /token, form-encoded or JSON (F1). The client id and secret normally travel in
 * `Authorization: Basic`; they may also be in the body. `scope` is space separated and optional
 * (omitted = a token with no scopes, docs/platform.md G5).
 */
export const TokenRequest = z.strictObject({
  grant_type: z.literal('client_credentials'),
  scope: z.string().optional(),
  client_id: z.string().min(1).optional(),
  client_secret: z.string().min(1).optional(),
});
export type TokenRequest = z.infer<typeof TokenRequest>;

/**
 * 200 answer of POST /token (F1), read tolerantly (docs/platform.md F22): only `access_token` is
 * needed. `expires_in` is any integer in the published schema, and a value that is missing, zero
 * or negative means "use it for this call, renew before the next" (F40): it reads as null then,
 * never as a refusal. A `scope` of the wrong type reads as none granted (it only feeds a warning).
 */
export const TokenResponse = z.object({
  access_token: z.string().min(1),
  token_type: z.string().nullish(),
  expires_in: z
    .number()
    .nullish()
    .catch(null)
    .transform((s) => (s !== null && s !== undefined && s > 0 ? s : null)),
  scope: z.string().nullish().catch(null),
  refresh_token: z.string().nullish().catch(null),
  refresh_token_expires_in: z.number().int().nullish().catch(null),
});
export type TokenResponse = z.infer<typeof TokenResponse>;

/** Splits the space-separated `scope` of a token request or response. */
export function parseScopes(scope: string | null | undefined): string[] {
  return (scope ?? '').split(/\s+/).filter((s) => s.length > 0);
}
