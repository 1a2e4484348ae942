-- The entries of one namespace in time order (issue 40; SQLite's 039): the neighbours of a search hit, visibility
-- and expiry included so that the seek can stay in the index.
CREATE INDEX memory_entries_timeline ON memory_entries (coalesce(agent_id, ''), namespace, created_at, id) INCLUDE (visibility, expires_at);
