-- The last check of each endpoint's webhook subscription against the platform's list
-- (src/operations/subscription-check.ts; docs/platform.md F20, F32). The worker trusted its own
-- webhook_subscriptions row: a platform that had lost the subscription (a restarted stub, a
-- deleted one) left webhooks and the sync button silently stopped. Each worker now checks at start
-- and every minute, registers again when it is missing, and `status` warns while the last check
-- found it missing or could not read the list.
create table webhook_subscription_checks (
  endpoint_url text primary key,
  checked_at timestamptz not null default now(),
  -- present: listed and active; missing: not listed as active (registered again); failed: the list could not be read
  outcome text not null check (outcome in ('present', 'missing', 'failed')),
  -- The subscription in force after the check (the new one after registering again), if any.
  subscription_id text,
  -- What was done, or why it failed: one sentence, no secret.
  detail text
);
