-- Finished per-request records are deleted after their retention (src/retention.ts, src/store/retention.ts): one
-- partial index per rule, on the time it compares, so a pass reads only the rows it deletes and a busy table's
-- unfinished rows stay out of the index.
CREATE INDEX a2a_tasks_finished ON a2a_tasks (updated_at) WHERE state IN ('completed', 'canceled', 'failed', 'rejected');
CREATE INDEX jobs_finished ON jobs (finished_at) WHERE finished_at IS NOT NULL;
CREATE INDEX webhook_deliveries_finished ON webhook_deliveries (finished_at) WHERE finished_at IS NOT NULL;
CREATE INDEX notifications_created ON notifications (created_at);
