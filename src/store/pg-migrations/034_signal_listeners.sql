-- A NOTIFY only while someone listens (issue 25, docs/decisions/postgres.md). Every transaction that notifies
-- takes one lock of the whole database at commit, to queue its notification: with every memory write notifying,
-- commits waited in line for it (a third of PostgreSQL's busy backends under the bench's memory PUTs, more with two
-- instances). An instance listens only while one of its MCP subscribers or A2A streams waits for changes
-- (src/mcp/resource-feed.ts, src/a2a/hub.ts); its listener connection then holds a row here per channel, renewed
-- while it listens and removed when it stops (an instance that dies leaves a row that expires). The signal
-- triggers of 027 (one function now, the channel its argument) notify only when a live row names their channel.
-- A write racing the first registration is seen at the listener's next poll, as one committed just before its
-- LISTEN always was.
CREATE TABLE signal_listeners (
  channel TEXT NOT NULL,
  listener TEXT NOT NULL,
  until BIGINT NOT NULL,
  PRIMARY KEY (channel, listener)
);

-- One trigger function for every signal, its channel the trigger's argument (027 had one function per channel).
CREATE FUNCTION notify_if_listened() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM signal_listeners WHERE channel = TG_ARGV[0] AND until > (extract(epoch FROM clock_timestamp()) * 1000)::bigint) THEN
    PERFORM pg_notify(TG_ARGV[0], '');
  END IF;
  RETURN NULL;
END $$;

DROP TRIGGER memory_changes_signal ON memory_changes;
DROP TRIGGER resource_changes_signal ON resource_changes;
DROP TRIGGER a2a_tasks_signal ON a2a_tasks;
DROP FUNCTION notify_resource_changes();
DROP FUNCTION notify_a2a_tasks();
CREATE TRIGGER memory_changes_signal AFTER INSERT OR UPDATE ON memory_changes FOR EACH STATEMENT EXECUTE FUNCTION notify_if_listened('gw_resource_changes');
CREATE TRIGGER resource_changes_signal AFTER INSERT ON resource_changes FOR EACH STATEMENT EXECUTE FUNCTION notify_if_listened('gw_resource_changes');
CREATE TRIGGER a2a_tasks_signal AFTER INSERT OR UPDATE ON a2a_tasks FOR EACH STATEMENT EXECUTE FUNCTION notify_if_listened('gw_a2a_tasks');
