-- Which instance runs a background worker whose work is found in the shared rows (fact extraction, embeddings):
-- several gateways on one database (PostgreSQL, or SQLite processes sharing a file) each picked the same due
-- entries, so every entry's facts were extracted once per instance (their fact rows written twice) and its text
-- sent to the embeddings API once per instance. One lease per worker (src/store/worker-lease.ts).
CREATE TABLE worker_leases (
  name TEXT PRIMARY KEY,
  holder TEXT NOT NULL,
  -- Milliseconds since the epoch, on the holder's clock; renewed while it finds work, deleted when its gateway stops.
  until INTEGER NOT NULL
) WITHOUT ROWID;
