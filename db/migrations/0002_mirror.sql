-- Chart-of-accounts mirror: remember the content the platform refused, so an unchanged item is
-- not sent again on every run (a re-run with no ERP change makes zero write calls). Cleared when
-- the item is mirrored; a changed item (different content hash) is tried again.
alter table id_map add column failed_hash text;
