-- How long the platform took to answer the sync button's calls (src/sync/sync-button/
-- platform-latency.ts): each page of a read of the requested rows, and each result post. The
-- watchdog's start is set from these (watchdog-lead.ts), by whichever process wakes it, so they
-- live in the database every process shares and outlive a restart. Kept for an hour.
create table platform_latency (
  connection_id text not null,
  -- 'read_page' or 'sync_post'
  call text not null,
  -- The read pass a page belongs to (its pages are counted per pass); null for a post.
  pass uuid,
  duration_ms integer not null,
  -- Rows on the page, or items in the post.
  items integer not null,
  at timestamptz not null default now()
);
create index platform_latency_recent on platform_latency (connection_id, at);
