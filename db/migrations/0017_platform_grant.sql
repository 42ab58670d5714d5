-- The Authorization Code grant (docs/platform.md F44-F46): the business's consent, kept as an
-- encrypted refresh and access token pair, one row per client. Token columns hold AES-256-GCM
-- ciphertext (src/platform/grant/token-cipher.ts), never a token's text. `refresh_token` changes
-- with every renewal (F46 rotation); `revoked_at` is set once the platform refused the stored one.
create table platform_grants (
  client_id text primary key,
  refresh_token text not null,
  access_token text,
  scope text not null default '',
  access_issued_at timestamptz,
  access_expires_at timestamptz,
  refresh_expires_at timestamptz,
  consented_at timestamptz not null default now(),
  renewed_at timestamptz,
  revoked_at timestamptz,
  revoked_reason text
);

-- Consents started (`ledgersync connect`, GET /oauth/start) and not yet come back: the state a
-- callback must carry, and the PKCE verifier (encrypted) the code is exchanged with.
create table oauth_consents (
  state text primary key,
  client_id text not null,
  redirect_uri text not null,
  code_verifier text not null,
  created_at timestamptz not null default now()
);
