-- Signals to other gateway instances (LISTEN/NOTIFY, src/store/pg-listener.ts): a write to a change log wakes the
-- MCP resource feed (src/mcp/resource-feed.ts) and a write to an A2A task wakes the task hub (src/a2a/hub.ts) of
-- every instance at once, instead of at their next poll. Statement-level, and PostgreSQL folds identical
-- notifications of one transaction into one, sent at commit; a rolled-back write sends none.
CREATE FUNCTION notify_resource_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('gw_resource_changes', '');
  RETURN NULL;
END $$;

CREATE TRIGGER memory_changes_signal AFTER INSERT OR UPDATE ON memory_changes FOR EACH STATEMENT EXECUTE FUNCTION notify_resource_changes();
CREATE TRIGGER resource_changes_signal AFTER INSERT ON resource_changes FOR EACH STATEMENT EXECUTE FUNCTION notify_resource_changes();

CREATE FUNCTION notify_a2a_tasks() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('gw_a2a_tasks', '');
  RETURN NULL;
END $$;

CREATE TRIGGER a2a_tasks_signal AFTER INSERT OR UPDATE ON a2a_tasks FOR EACH STATEMENT EXECUTE FUNCTION notify_a2a_tasks();
