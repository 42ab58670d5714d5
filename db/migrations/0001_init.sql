-- The worker's own state. Every table carries the platform connection id, so one deployment can
-- serve several connections (and the migration runner can preload an inactive one).

create table connections (
  id text primary key,                -- the platform's accounting connection id
  remote_provider_name text not null,
  is_active boolean not null,
  role text not null default 'primary' check (role in ('primary', 'migration_target')),
  created_at timestamptz not null default now()
);

-- What has been mirrored from the ERP's chart of accounts to the platform.
create table id_map (
  connection_id text not null,
  kind text not null check (kind in (
    'gl_account', 'field', 'field_option', 'vendor', 'tax_rate', 'tax_code_field', 'tax_code_option'
  )),
  parent_remote_id text not null default '', -- the field's remote id for options, else ''
  remote_id text not null,                   -- the ERP's id
  svc_id text,                               -- the platform's id; null until the upload is recorded
  content_hash text not null,                -- hash of what was last sent, to skip unchanged items
  is_active boolean not null default true,
  visibility text not null default 'VISIBLE' check (visibility in ('VISIBLE', 'HIDDEN')),
  last_error text,
  updated_at timestamptz not null default now(),
  primary key (connection_id, kind, parent_remote_id, remote_id)
);
create index id_map_svc_id on id_map (connection_id, kind, svc_id);

-- One row per (platform object, sync type). The ERP write happens at most once because this row
-- says so, and the ERP call itself carries the object id as its idempotency key.
--   PENDING  claimed, ERP write not yet known to have happened
--   IN_ERP   the ERP holds it (reference_id set), not yet reported
--   FAILED   the ERP or validation refused it (error_* set), not yet reported
--   REPORTED a frozen result batch that carries it was acknowledged by the platform
create table sync_ledger (
  connection_id text not null,
  object_id text not null,
  sync_type text not null,
  state text not null check (state in ('PENDING', 'IN_ERP', 'FAILED', 'REPORTED')),
  outcome text check (outcome in ('success', 'failure')),
  reference_id text,
  deep_link_url text,
  error_category text check (error_category in ('user_actionable', 'transient', 'needs_integrator')),
  error_message text,
  sync_request_id text,
  batch_id bigint,
  attempts integer not null default 0,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (connection_id, object_id, sync_type)
);
create index sync_ledger_unbatched on sync_ledger (connection_id, sync_type, state)
  where batch_id is null and state in ('IN_ERP', 'FAILED');

-- The outbox. A batch is frozen (body and key fixed) in the transaction that claims its ledger
-- rows, then sent exactly as frozen however often it is retried (docs/platform.md F15).
create table result_batches (
  id bigserial primary key,
  connection_id text not null,
  sync_type text not null,
  sync_request_id text,
  body jsonb not null,
  idempotency_key text not null unique,  -- hash of the frozen body: derived, never random
  item_count integer not null,
  state text not null check (state in ('FROZEN', 'ACKED')),
  sync_id text,
  response jsonb,
  attempts integer not null default 0,
  last_error text,
  created_at timestamptz not null default now(),
  acked_at timestamptz
);
create index result_batches_frozen on result_batches (connection_id, state) where state = 'FROZEN';

create table cursors (
  connection_id text not null,
  name text not null,
  value text not null,
  updated_at timestamptz not null default now(),
  primary key (connection_id, name)
);

-- Webhook deliveries seen; a duplicate event id is a no-op (docs/platform.md F21).
create table webhook_events (
  event_id text primary key,
  type text not null,
  created_at timestamptz,
  received_at timestamptz not null default now()
);

-- Sync-button requests and their 5-minute deadline (docs/platform.md G29).
create table sync_requests (
  sync_request_id text primary key,
  connection_id text not null,
  object_type text not null check (object_type in ('TRANSACTION', 'REIMBURSEMENT')),
  requested_at timestamptz not null,
  deadline timestamptz not null,
  state text not null default 'OPEN' check (state in ('OPEN', 'ANSWERED', 'EXPIRED')),
  answered_at timestamptz
);

-- What ran, for status and the dashboard.
create table runs (
  id bigserial primary key,
  connection_id text,
  kind text not null,
  trigger text not null,
  started_at timestamptz not null default now(),
  finished_at timestamptz,
  status text not null default 'running' check (status in ('running', 'succeeded', 'failed')),
  counts jsonb not null default '{}'::jsonb,
  error text
);
create index runs_recent on runs (kind, started_at desc);
