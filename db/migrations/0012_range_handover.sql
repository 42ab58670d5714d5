-- A reader joining a bulk read asks for ranges others are reading instead of cutting them
-- (src/sync/objects/reading/split-reader.ts): wanted_by names it until the range's reader hands
-- the range over at the end of a page, and then until it claims the range.
alter table read_ranges add column wanted_by text;
