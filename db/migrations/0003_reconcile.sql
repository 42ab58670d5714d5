-- Objects the platform shows as synced that ledgersync never reported: marked by the platform's
-- manual export button or another tool (docs/platform.md G25). Listed for the operator.
create table external_syncs (
  connection_id text not null,
  object_id text not null,
  sync_type text not null,
  synced_at timestamptz,
  found_at timestamptz not null default now(),
  primary key (connection_id, object_id, sync_type)
);
