-- Measured (npm run bench, scenario 2, 200,000 objects): acknowledging a batch updated its rows
-- by batch_id with no index, a full scan of sync_ledger each time (~110 ms at 200,000 rows), and
-- recording outcomes joined every row of the connection and sync type when statistics were
-- stale. Rows in a batch, and rows in flight (PENDING), get their own small indexes.
create index sync_ledger_batch on sync_ledger (batch_id) where batch_id is not null;
create index sync_ledger_pending on sync_ledger (connection_id, sync_type, object_id) where state = 'PENDING';
