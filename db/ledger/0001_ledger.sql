-- The built-in double-entry ledger ERP. Schema-agnostic: the runner sets search_path to the
-- ledger's schema, and every function captures it (SET search_path FROM CURRENT), so triggers
-- resolve their tables even when the caller's search_path points elsewhere.

-- Books are kept per entity in one currency; an object in another currency is refused.
create table entities (
  id text primary key,
  name text not null,
  currency text not null check (currency ~ '^[A-Z]{3}$'),
  currency_exponent smallint not null check (currency_exponent between 0 and 4),
  is_default boolean not null default false
);
create unique index entities_one_default on entities (is_default) where is_default;

create table accounts (
  id text primary key,
  code text not null default '',
  name text not null,
  classification text not null check (classification in
    ('ASSET', 'LIABILITY', 'EQUITY', 'REVENUE', 'EXPENSE', 'CREDCARD', 'ANY', 'UNKNOWN')),
  active boolean not null default true,
  hidden boolean not null default false
);

-- Custom fields (department, class, location, project...). required_for lists object kinds
-- whose every coded line must carry an option of the field.
create table custom_fields (
  id text primary key,
  name text not null,
  input_type text not null default 'SINGLE_CHOICE'
    check (input_type in ('SINGLE_CHOICE', 'FREE_FORM_TEXT', 'BOOLEAN', 'DATE')),
  required_for text[] not null default '{}',
  active boolean not null default true,
  hidden boolean not null default false
);

create table field_options (
  field_id text not null references custom_fields (id),
  id text not null,
  value text not null,
  code text not null default '',
  active boolean not null default true,
  hidden boolean not null default false,
  primary key (field_id, id)
);

create table vendors (
  id text primary key,
  name text not null,
  code text not null default '',
  active boolean not null default true,
  created_by_posting bigint -- set when the sync created the vendor (postings.id)
);

create table tax_rates (
  id text primary key,
  name text not null,
  rate numeric(10, 6) not null, -- negative for reverse charge
  account_id text not null references accounts (id)
);

create table tax_codes (
  id text primary key,
  name text not null,
  active boolean not null default true
);

create table tax_code_rates (
  tax_code_id text not null references tax_codes (id),
  tax_rate_id text not null references tax_rates (id),
  primary key (tax_code_id, tax_rate_id)
);

-- The accounts posting rules fall back to when an object does not name one.
create table posting_defaults (
  role text primary key check (role in
    ('card_liability', 'employee_payable', 'accounts_payable', 'bank', 'cashback_income')),
  account_id text not null references accounts (id)
);

-- A period is open unless a row says it is closed.
create table periods (
  period_start date primary key,
  period_end date not null check (period_end >= period_start),
  closed_at timestamptz
);

-- One row per platform object the ledger accepted: the idempotency record. The unique key makes
-- two concurrent posts of one object write once (the second waits on the index, then conflicts).
create sequence posting_numbers;
create table postings (
  id bigint primary key default nextval('posting_numbers'),
  kind text not null check (kind in
    ('vendor', 'card_transaction', 'reimbursement', 'transfer', 'cashback', 'bill', 'bill_payment')),
  object_id text not null,
  -- The ERP's number for what was written, reported to the platform as reference_id; a created
  -- vendor's remote id is its reference.
  reference_id text not null generated always as (
    case kind when 'vendor' then 'V-' when 'bill' then 'BILL-' when 'bill_payment' then 'PAY-' else 'JE-' end
    || lpad(id::text, greatest(7, length(id::text)), '0')
  ) stored unique,
  posted_at timestamptz not null default now(),
  unique (kind, object_id)
);
alter table vendors add foreign key (created_by_posting) references postings (id);

-- The journal's references (entry -> posting and entity, line -> entry, account and vendor) are
-- checked once per statement by the triggers below, not per row by foreign keys: per-row checks
-- were 300 ms of a 455 ms 10,000-object write. Referenced rows can never be deleted or
-- renumbered (chart items are deactivated instead), so what a check accepted stays true.
create table journal_entries (
  id bigint primary key,           -- = postings.id of the object it records
  entity_id text not null,         -- -> entities
  entry_date date not null,
  currency text not null,
  memo text not null default '',
  source_kind text not null,       -- = postings.kind
  source_object_id text not null,  -- = postings.object_id: every entry traces to its platform object
  counterpart jsonb
);
create index journal_entries_date on journal_entries (entry_date);

-- amount > 0 is a debit, < 0 a credit, in the entry's currency's minor units.
create table journal_lines (
  entry_id bigint not null,        -- -> journal_entries
  line_no integer not null,
  account_id text not null,        -- -> accounts
  amount bigint not null check (amount <> 0),
  vendor_id text,                  -- -> vendors
  tax_code_id text,
  tax_rate_id text,
  dimensions jsonb not null default '{}'::jsonb,
  memo text not null default '',
  primary key (entry_id, line_no)
);

create table bills (
  id bigint primary key references postings (id),
  vendor_id text not null references vendors (id),
  invoice_number text,
  due_date date,
  currency text not null,
  total bigint not null check (total > 0),
  -- Payments add to paid in the statement that records them; this refuses an overpayment even
  -- when two payments of one bill are written at the same time.
  paid bigint not null default 0 constraint bills_paid_within_total check (paid >= 0 and paid <= total)
);

create table bill_payments (
  id bigint primary key references postings (id),
  bill_id bigint not null references bills (id),
  amount bigint not null check (amount > 0)
);
create index bill_payments_bill on bill_payments (bill_id);

-- Every statement that writes journal lines must leave each entry it touched balanced, and every
-- line must name an existing entry, account and vendor. Touched entries are probed one by one
-- through the primary key (LATERAL keeps the planner, which knows nothing of the transition
-- table, from scanning the whole journal); accounts and vendors are checked once per distinct id.
create function journal_lines_check() returns trigger
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
             where not exists (select 1 from journal_entries j where j.id = e.entry_id) limit 1),
           (select format('account %s does not exist', a.account_id)
              from (select distinct n.account_id from new_lines n) a
             where not exists (select 1 from accounts x where x.id = a.account_id) limit 1),
           (select format('vendor %s does not exist', v.vendor_id)
              from (select distinct n.vendor_id from new_lines n where n.vendor_id is not null) v
             where not exists (select 1 from vendors x where x.id = v.vendor_id) limit 1))
    into bad;
  if bad is not null then
    raise exception using errcode = '23503', message = bad;
  end if;
  return null;
end $$;

create trigger journal_lines_check after insert on journal_lines
  referencing new table as new_lines
  for each statement execute function journal_lines_check();

-- No entry may be dated in a closed period; each entry must record the posting it claims to
-- (same id, kind and object id) and an existing entity.
create function journal_entries_check() returns trigger
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
             cross join lateral (select count(*) as n from postings p
                                  where p.id = e.id and p.kind = e.source_kind and p.object_id = e.source_object_id) c
             where c.n = 0 limit 1),
           (select format('entity %s does not exist', x.entity_id)
              from (select distinct n.entity_id from new_entries n) x
             where not exists (select 1 from entities y where y.id = x.entity_id) limit 1))
    into bad;
  if bad is not null then
    raise exception using errcode = '23503', message = bad;
  end if;
  return null;
end $$;

create trigger journal_entries_check after insert on journal_entries
  referencing new table as new_entries
  for each statement execute function journal_entries_check();

-- The journal is append-only: a correction is a new entry, never an edit. What it references is
-- never deleted or renumbered: deactivate a chart item instead.
create function ledger_refuse_change() returns trigger
language plpgsql set search_path from current as $$
begin
  raise exception using errcode = 'LS003',
    message = format('%s rows cannot be %s: the journal refers to them (deactivate instead, or post a correcting entry)',
                     tg_table_name, case tg_op when 'DELETE' then 'deleted' else 'changed' end);
end $$;

create trigger journal_entries_append_only before update or delete on journal_entries
  for each statement execute function ledger_refuse_change();
create trigger journal_lines_append_only before update or delete on journal_lines
  for each statement execute function ledger_refuse_change();
create trigger postings_keep before update or delete on postings
  for each statement execute function ledger_refuse_change();
create trigger accounts_keep before update of id or delete on accounts
  for each statement execute function ledger_refuse_change();
create trigger vendors_keep before update of id or delete on vendors
  for each statement execute function ledger_refuse_change();
create trigger entities_keep before update of id or delete on entities
  for each statement execute function ledger_refuse_change();
