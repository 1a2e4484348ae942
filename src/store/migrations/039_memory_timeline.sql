-- The entries of one namespace in time order (issue 40): a relevance search reads where its best hits' neighbours
-- are, to rank a turn of a conversation with the turns around it, and `neighbors` returns them. The id is named so
-- that entries of one millisecond (a bulk write) are sought by it, and visibility and expiry ride along so that the
-- seek never reads the table (about 50 bytes an entry).
CREATE INDEX memory_entries_timeline ON memory_entries (ifnull(agent_id, ''), namespace, created_at, id, visibility, expires_at);
