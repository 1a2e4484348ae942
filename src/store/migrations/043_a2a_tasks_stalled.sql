-- A2A tasks whose work stopped with a process (issue 42, src/store/a2a-tasks.ts expireInterruptedTasks): a task left in
-- submitted or working by a crash, with no job or handoff to finish it, ends as failed after the same wait as a task
-- left waiting for the client. The partial index of 042 now holds those states too (still few rows).
DROP INDEX a2a_tasks_interrupted;
CREATE INDEX a2a_tasks_stalled ON a2a_tasks (updated_at) WHERE state IN ('submitted', 'working', 'input-required', 'auth-required') AND waiting_ref IS NULL;
