-- One instance at a time runs a background worker whose work is found in the shared rows (fact extraction,
-- embeddings): see migrations/037_worker_leases.sql and src/store/worker-lease.ts.
CREATE TABLE worker_leases (
  name TEXT PRIMARY KEY,
  holder TEXT NOT NULL,
  until BIGINT NOT NULL
);
