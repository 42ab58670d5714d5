-- The shared plan of a bulk read (src/sync/objects/reading/postgres-board.ts): the date ranges a
-- run of one kind is read in, who reads which and how far each got, so several worker processes
-- can read one backlog together and a reader that runs dry can cut the range with most left.
create table read_runs (
  connection_id text not null,
  kind text not null,
  run_id text not null unique,
  starter text not null,
  page_order text check (page_order in ('ascending', 'descending', 'unsorted')),
  -- False once a page broke its range or the order: no more cuts (see split-reader.ts).
  trusted boolean not null default true,
  state text not null check (state in ('reading', 'done')),
  started_at timestamptz not null default now(),
  primary key (connection_id, kind)
);

create table read_ranges (
  run_id text not null references read_runs (run_id) on delete cascade,
  id integer not null,
  -- Dates in ms since the epoch; null is an open end. filter = what the cursor asks for,
  -- bound = where it stops (narrowed by cuts).
  filter_from bigint,
  filter_to bigint,
  bound_from bigint,
  bound_to bigint,
  state text not null check (state in ('open', 'reading', 'done')),
  reader text,
  position bigint,
  items integer not null default 0,
  touched_at timestamptz not null default now(),
  primary key (run_id, id)
);
