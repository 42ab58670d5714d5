-- A frozen batch is sent under a lease on its row (src/sync/outbox/batch-lease.ts), not under a
-- lock held in a transaction across the HTTP call: a sender that stops mid-send (a GC pause, a
-- frozen VM) then holds the batch up for one lease at most, and nobody waits on a database lock.
-- lease_until is set from the database clock; both are cleared when the batch is acknowledged or
-- its send fails.
alter table result_batches add column lease_owner text;
alter table result_batches add column lease_until timestamptz;
