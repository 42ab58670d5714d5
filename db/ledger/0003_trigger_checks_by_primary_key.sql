-- The checks of both journal triggers probe through primary keys, without an aggregate per probe.
-- journal_entries_check matched each entry to its posting with count(*) over (id, kind, object
-- id): the planner took the (kind, object_id) unique index, two text keys, where the posting's id
-- is the bigint primary key. Now the posting is found by id and its kind and object id compared.
-- The existence checks of journal_lines_check ask for the key itself (null when absent) instead
-- of counting. Same refusals, same messages; measured on 16,436 card transactions in pages of 100
-- (pg_stat_statements): the entries check 88-100 ms in all before, 60-61 ms after; the lines
-- check 131-150 ms before, 122-127 ms after.
create or replace function journal_entries_check() returns trigger
language plpgsql set search_path from current as $$
declare
  closed_day date;
  bad text;
begin
  select e.entry_date into closed_day
    from new_entries e
    join periods p on e.entry_date between p.period_start and p.period_end
   where p.closed_at is not null
   limit 1;
  if closed_day is not null then
    raise exception using errcode = 'LS001',
      message = format('the period containing %s is closed', closed_day);
  end if;
  select coalesce(
           (select format('journal entry %s does not match a posting of %s %s', e.id, e.source_kind, e.source_object_id)
              from new_entries e
             where (select p.kind = e.source_kind and p.object_id = e.source_object_id
                      from postings p where p.id = e.id) is not true
             limit 1),
           (select format('entity %s does not exist', x.entity_id)
              from (select distinct n.entity_id from new_entries n) x
             where (select y.id from entities y where y.id = x.entity_id) is null limit 1))
    into bad;
  if bad is not null then
    raise exception using errcode = '23503', message = bad;
  end if;
  return null;
end $$;

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
             where (select j.id from journal_entries j where j.id = e.entry_id) is null limit 1),
           (select format('account %s does not exist', a.account_id)
              from (select distinct n.account_id from new_lines n) a
             where (select x.id from accounts x where x.id = a.account_id) is null limit 1),
           (select format('vendor %s does not exist', v.vendor_id)
              from (select distinct n.vendor_id from new_lines n where n.vendor_id is not null) v
             where (select x.id from vendors x where x.id = v.vendor_id) is null limit 1))
    into bad;
  if bad is not null then
    raise exception using errcode = '23503', message = bad;
  end if;
  return null;
end $$;
