-- A2A tasks left waiting for the client expire (issue 42, src/store/a2a-tasks.ts expireInterruptedTasks): a task in
-- input-required or auth-required that waits for no job or handoff ends as failed once it has waited too long. A
-- partial index on the time the sweep compares holds only those tasks (few), so a sweep reads only what it ends.
CREATE INDEX a2a_tasks_interrupted ON a2a_tasks (updated_at) WHERE state IN ('input-required', 'auth-required') AND waiting_ref IS NULL;
