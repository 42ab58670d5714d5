-- Connection migration (docs/platform.md G31, G30, F6, F7):
-- moving the customer onto a new, inactive API connection. One row per migration; its progress is
-- a state machine whose allowed moves are the rows of migration_transitions, and every move is
-- an `update ... where state = $from and exists (transition)`, so two processes can never both
-- take the same step and a move the table does not list never happens.

create table migration_states (
  state text primary key,
  position integer not null unique,  -- the order of the steps, for status and for resuming
  terminal boolean not null default false
);

insert into migration_states (state, position, terminal) values
  ('started', 1, false),         -- row created; preconditions not yet checked
  ('checked', 2, false),         -- outstanding objects synced (or --force), no other migration
  ('backed_up', 3, false),       -- the current chart is in chart_backups and in the JSON file
  ('target_created', 4, false),  -- the inactive API connection exists and is recorded
  ('preloaded', 5, false),       -- the ERP's chart was mirrored into it without a refused item
  ('verified', 6, false),        -- its chart holds exactly the ERP's active items
  ('ready', 7, false),           -- ready-to-migrate accepted (F7); waiting for the customer
  ('switched', 8, true),         -- the customer switched: the target is the active connection
  ('abandoned', 9, true);        -- dropped by an operator (`migrate abandon`)

create table migration_transitions (
  from_state text not null references migration_states (state),
  to_state text not null references migration_states (state),
  primary key (from_state, to_state)
);

insert into migration_transitions (from_state, to_state) values
  ('started', 'checked'),
  ('checked', 'backed_up'),
  ('backed_up', 'target_created'),
  ('target_created', 'preloaded'),
  ('preloaded', 'verified'),
  ('verified', 'ready'),
  ('ready', 'switched'),
  ('started', 'abandoned'),
  ('checked', 'abandoned'),
  ('backed_up', 'abandoned'),
  ('target_created', 'abandoned'),
  ('preloaded', 'abandoned'),
  ('verified', 'abandoned'),
  ('ready', 'abandoned');

create table migrations (
  id bigserial primary key,
  source_connection_id text not null,        -- the active connection the customer leaves
  provider text not null,                    -- remote_provider_name of the new connection
  target_connection_id text,                 -- the inactive connection; null until created
  requested_target boolean not null default false, -- the target was named (--target), not created
  state text not null default 'started' references migration_states (state),
  -- Connection ids that existed before this migration first asked for a new connection: after a
  -- crash between the POST and its record, the one new inactive API connection is adopted
  -- instead of a second one being created.
  connections_before text[],
  outstanding jsonb,        -- ready objects left behind under --force
  preload jsonb,            -- the mirror's counts per kind
  verification jsonb,       -- ERP vs platform counts and differences per kind
  last_error text,          -- why the last run stopped (scrubbed), cleared by the next step
  started_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  ready_at timestamptz,
  finished_at timestamptz
);

-- "No other migration in progress" (F7), held locally too: at most one open migration.
create unique index migrations_one_open on migrations ((true))
  where state not in ('switched', 'abandoned');
create index migrations_recent on migrations (id desc);

-- The chart of accounts of the connection being left, as the platform held it (every item with
-- its svc_id and state), because the switch drops historical codings (docs/platform.md G30). One row
-- per migration; a re-run replaces it (same file too).
create table chart_backups (
  id bigserial primary key,
  migration_id bigint not null unique references migrations (id),
  connection_id text not null,
  file_path text not null,
  item_count integer not null,
  counts jsonb not null,
  sha256 text not null,      -- of the file's bytes, to prove a restore reads what was written
  document jsonb not null,
  taken_at timestamptz not null default now()
);
