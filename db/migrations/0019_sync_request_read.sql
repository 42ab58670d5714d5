-- How far the reads of a sync-button press's requested rows have got (src/sync/sync-button/
-- requests.ts, read-cursor.ts): the watchdog takes the reading up from here instead of reading
-- again what the press's run already read, and sets its start from the pages that remain
-- (watchdog-lead.ts). Whichever reader (the run, or the watchdog) got further moves it.
--   read_pages     pages read along the furthest read so far
--   read_next      page.next after them (docs/platform.md F4); null before the first page, and
--                  once the read is complete
--   read_complete  a read listed every requested row: nothing is left to read
--   read_at        when the furthest read last moved
--   cut_short      the watchdog answered the press before every requested row could be read: the
--                  rows read were answered (a temporary failure where nothing else was known),
--                  the rest were left to the platform's window (status says so)
alter table sync_requests
  add column read_pages integer not null default 0,
  add column read_next text,
  add column read_complete boolean not null default false,
  add column read_at timestamptz,
  add column cut_short boolean not null default false;
