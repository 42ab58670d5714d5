-- An object synced outside ledgersync stays listed by `reconcile` until the operator acknowledges
-- it (`reconcile --ack`), so a listing read once and lost is never gone for good.
alter table external_syncs add column acknowledged_at timestamptz;
