-- Two more kinds of per-request rows are deleted after their retention (src/store/retention.ts): resolved handoffs
-- (completed, rejected or expired; an anonymous caller could otherwise park them for ever) and anonymous template
-- runs (they count only in the 30-day popularity figures; an agent's are its badges and stay). One partial index
-- per rule, on the time it compares, as migration 030's.
CREATE INDEX handoffs_resolved ON handoffs (resolved_at) WHERE status <> 'parked';
CREATE INDEX template_runs_anonymous ON template_runs (created_at) WHERE agent_id IS NULL;
