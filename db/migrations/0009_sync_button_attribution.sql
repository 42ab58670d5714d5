-- Sync-button attribution (docs/decisions.md "Sync-button rows are attributed to requests from
-- what the platform shows"). A read of requested rows (requested_to_sync=true, docs/platform.md
-- F16) lists the rows of every open request of a kind together; these tables keep what the reads
-- showed, so each row is answered under its own sync_request_id and by its own request's deadline.

-- One row per object seen requested. A streak starts when a read lists the object and ends
-- (GONE) when a later complete read no longer lists it, or a posted result answered it.
--   sync_request_id  the request the streak is attributed to (null while no known press fits)
--   requested_after  the owner was pressed after this time (a read or an answer showed the object
--                    not requested then); null when nothing is known
--   seen_from, first_seen_by   the read that began the streak (the owner was open at its start
--                    and pressed before its end)
--   last_seen_from, last_seen  the start of the latest read that listed it, the end of the latest
--   gone_from/by     when it was found not requested: a complete read's interval, or the
--                    interval between freezing and acknowledging the result that answered it
create table sync_request_rows (
  connection_id text not null,
  object_type text not null check (object_type in ('TRANSACTION', 'REIMBURSEMENT')),
  object_id text not null,
  state text not null check (state in ('REQUESTED', 'GONE')),
  sync_request_id text,
  requested_after timestamptz,
  seen_from timestamptz not null,
  first_seen_by timestamptz not null,
  last_seen_from timestamptz not null,
  last_seen timestamptz not null,
  gone_from timestamptz,
  gone_by timestamptz,
  updated_at timestamptz not null default now(),
  primary key (connection_id, object_type, object_id)
);
create index sync_request_rows_owner on sync_request_rows (sync_request_id) where state = 'REQUESTED';

-- Complete reads of the requested rows of a kind: the start of the latest one that finished
-- before a read began bounds when a row first listed by that read was pressed.
create table sync_request_reads (
  connection_id text not null,
  object_type text not null,
  started_at timestamptz not null,
  finished_at timestamptz not null
);
create index sync_request_reads_finished on sync_request_reads (connection_id, object_type, finished_at);

create index sync_requests_press on sync_requests (connection_id, object_type, requested_at);
