-- What this worker sent under each idempotency key (docs/platform.md F15), kept in the database
-- whose outbox the sends belong to (docs/decisions.md "Idempotency records live with the
-- outbox"): a fresh database starts with none, so it never inherits "already sent" from an
-- earlier world. Keyed by the platform's base URL as well: another platform never shares them.
create table platform_idempotency (
  platform text not null,
  key text not null,
  body_hash text not null,
  -- {"body": <first 2xx answer>} once one arrived; null while none did (or it was lost).
  answer jsonb,
  sent_at timestamptz not null default now(),
  primary key (platform, key)
);
create index platform_idempotency_sent_at on platform_idempotency (sent_at);
