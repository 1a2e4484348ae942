-- The entries of one namespace in time order (issue 40): a relevance search reads the entries written just before
-- and after its best hits, to rank a turn of a conversation with the turns around it, and `neighbors` returns
-- them. Without this index each such read sorted the whole namespace. About 40 bytes an entry.
CREATE INDEX memory_entries_timeline ON memory_entries (ifnull(agent_id, ''), namespace, created_at);
