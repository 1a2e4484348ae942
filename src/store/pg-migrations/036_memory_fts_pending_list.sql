-- The memory full-text index's pending list kept to 1 MB instead of PostgreSQL's default 4 MB (issue 26,
-- docs/decisions/storage.md). GIN's "fast update" appends new entries' words to a pending list that every search
-- reads in full and that the inserting backend merges into the index once it is full; the merged list's pages stay
-- in the index file. Measured on 5,000 notes written through bulk put, right after the writes: a search 26-31 ms
-- -> 15 ms, the index 1.08 -> 0.67 bytes per value byte, the bulk writes 5.0 -> 5.35 s. Without a pending list at
-- all (fastupdate off) the index was 0.56 and searches as fast, but the bulk writes took 40% longer.
ALTER INDEX memory_entries_fts SET (gin_pending_list_limit = 1024);
