-- Triggers: webhook subscriptions (docs/platform.md F20) and the sync-button watchdog (docs/platform.md G29).

-- Subscriptions this worker registered, with the secret that signs their deliveries (F21).
-- WEBHOOK_SECRET in the environment overrides what is stored here.
create table webhook_subscriptions (
  id text primary key,                 -- the platform's subscription id
  endpoint_url text not null,
  event_types text[] not null,
  secret text not null,
  status text not null check (status in ('pending_verification', 'active', 'disabled')),
  created_at timestamptz not null default now(),
  verified_at timestamptz
);
create index webhook_subscriptions_endpoint on webhook_subscriptions (endpoint_url, status);

-- Challenges the platform POSTed to the endpoint (F20). The challenge can reach the receiver
-- before the subscribe call has returned the secret, and can reach another replica, so the
-- registration code finds it here and checks its signature once it knows the secret.
create table webhook_challenges (
  id bigserial primary key,
  challenge text not null,
  raw_body text not null,
  signature text,
  received_at timestamptz not null default now()
);
create index webhook_challenges_received on webhook_challenges (received_at);

-- Sync requests the connection's flag turned away are IGNORED; the watchdog counts what it
-- answered with a temporary failure.
alter table sync_requests drop constraint sync_requests_state_check;
alter table sync_requests add constraint sync_requests_state_check
  check (state in ('OPEN', 'ANSWERED', 'EXPIRED', 'IGNORED'));
alter table sync_requests add column watchdog_failed integer not null default 0;
create index sync_requests_open on sync_requests (deadline) where state = 'OPEN';

create index webhook_events_received on webhook_events (received_at);
