-- The checks of journal_lines_check probe each entry, account and vendor a statement touched
-- through its primary key, one by one. Written as NOT EXISTS, the planner made an anti-join and,
-- knowing nothing of the transition table, hashed the whole journal for it: the trigger's plan is
-- made once per session, while the journal is small, so every later statement read every entry
-- ever written (13 ms a page at 200,000 entries, more the longer a process runs). A scalar
-- subquery in the WHERE clause is evaluated per row, through the key.
create or replace function journal_lines_check() returns trigger
language plpgsql set search_path from current as $$
declare
  bad text;
begin
  select format('journal entry %s does not balance: its lines must sum to zero', e.entry_id) into bad
    from (select distinct n.entry_id from new_lines n) e
   cross join lateral (select sum(l.amount) as total from journal_lines l where l.entry_id = e.entry_id) s
   where s.total <> 0
   limit 1;
  if bad is not null then
    raise exception using errcode = 'LS002', message = bad;
  end if;
  select coalesce(
           (select format('journal entry %s does not exist', e.entry_id)
              from (select distinct n.entry_id from new_lines n) e
             where (select count(*) from journal_entries j where j.id = e.entry_id) = 0 limit 1),
           (select format('account %s does not exist', a.account_id)
              from (select distinct n.account_id from new_lines n) a
             where (select count(*) from accounts x where x.id = a.account_id) = 0 limit 1),
           (select format('vendor %s does not exist', v.vendor_id)
              from (select distinct n.vendor_id from new_lines n where n.vendor_id is not null) v
             where (select count(*) from vendors x where x.id = v.vendor_id) = 0 limit 1))
    into bad;
  if bad is not null then
    raise exception using errcode = '23503', message = bad;
  end if;
  return null;
end $$;
