-- Webhook intake without a transaction across Redis (docs/decisions.md "Webhooks: commit, then
-- enqueue" and "A challenge is accepted only while this worker registers").

-- An event id is recorded and committed first; enqueued_at is set once its job is in the queue.
-- A delivery of an id whose enqueued_at is null (the first enqueue failed) enqueues again.
alter table webhook_events add column enqueued_at timestamptz;
update webhook_events set enqueued_at = received_at;
create index webhook_events_not_enqueued on webhook_events (received_at) where enqueued_at is null;

-- A registration in progress (docs/platform.md F20): challenges are taken only while one is
-- open, for a short time, and tied to it.
create table webhook_registrations (
  id bigserial primary key,
  endpoint_url text not null,
  subscription_id text,
  opened_at timestamptz not null default now(),
  expires_at timestamptz not null,
  closed_at timestamptz,
  -- Challenges kept for it so far: counted here, under the row's lock, so the cap holds
  -- however many arrive at once.
  untrusted_challenges integer not null default 0,
  trusted_challenges integer not null default 0
);
create index webhook_registrations_open on webhook_registrations (expires_at) where closed_at is null;

-- Challenges received before this change belong to no registration and are never used.
delete from webhook_challenges;
alter table webhook_challenges
  add column registration_id bigint not null references webhook_registrations (id) on delete cascade;
-- trusted: signed with a secret of a subscription this worker holds (one a stranger cannot forge).
alter table webhook_challenges add column trusted boolean not null default false;
create index webhook_challenges_registration on webhook_challenges (registration_id, trusted);
