-- A NOTIFY only while someone listens (issue 25, docs/decisions/postgres.md). Every transaction that notifies
-- takes one lock of the whole database at commit, to queue its notification: with every memory write notifying,
-- commits waited in line for it (a third of PostgreSQL's busy backends under the bench's memory PUTs, more with two
-- instances). An instance listens only while one of its MCP subscribers or A2A streams waits for changes
-- (src/mcp/resource-feed.ts, src/a2a/hub.ts); its listener connection then holds a row here per channel, renewed
-- while it listens and removed when it stops (an instance that dies leaves a row that expires). The signal
-- triggers of 027 notify only when a live row names their channel. A write racing the first registration is seen
-- at the listener's next poll, as one committed just before its LISTEN always was.
CREATE TABLE signal_listeners (
  channel TEXT NOT NULL,
  listener TEXT NOT NULL,
  until BIGINT NOT NULL,
  PRIMARY KEY (channel, listener)
);

CREATE FUNCTION signal_listened(c text) RETURNS boolean LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN EXISTS (SELECT 1 FROM signal_listeners WHERE channel = c AND until > (extract(epoch FROM clock_timestamp()) * 1000)::bigint);
END $$;

CREATE OR REPLACE FUNCTION notify_resource_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF signal_listened('gw_resource_changes') THEN
    PERFORM pg_notify('gw_resource_changes', '');
  END IF;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION notify_a2a_tasks() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF signal_listened('gw_a2a_tasks') THEN
    PERFORM pg_notify('gw_a2a_tasks', '');
  END IF;
  RETURN NULL;
END $$;
