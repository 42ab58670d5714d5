-- "migration" meant two things: the schema migrations in this folder and the connection
-- migrations of `migrate prepare` (docs/glossary.md). The table of the second takes the longer
-- name, with its sequence, keys and indexes, so that a name found in the database says which.
-- Renames keep the rows, the column defaults (they hold the sequence itself, not its name) and
-- the foreign key of chart_backups.

alter table migrations rename to connection_migrations;
alter sequence migrations_id_seq rename to connection_migrations_id_seq;
alter table connection_migrations rename constraint migrations_pkey to connection_migrations_pkey;
alter table connection_migrations rename constraint migrations_state_fkey to connection_migrations_state_fkey;
alter index migrations_one_open rename to connection_migrations_one_open;
alter index migrations_recent rename to connection_migrations_recent;
