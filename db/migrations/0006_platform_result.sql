-- What the platform answered for each reported row (docs/platform.md F14: SYNCED, FAILED or
-- REJECTED with a reason), so a rejection is visible to the operator instead of looking synced.
alter table sync_ledger add column platform_status text check (platform_status in ('SYNCED', 'FAILED', 'REJECTED'));
alter table sync_ledger add column platform_reason text;
