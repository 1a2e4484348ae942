-- PostgreSQL port of migrations/044_storage_budget.sql: the per-agent storage budget (issue 42,
-- docs/decisions/storage-budget.md). Each charged table has a measure function (its row's content bytes plus 256),
-- used by its triggers and by the backfill. Every charge goes through storage_charge() (the function behind the view
-- storage_charges' INSTEAD OF trigger), which adds it to the owner's storage_usage row with one upsert: it takes the
-- row's lock to commit and returns the total with every committed charge in it (as memory_usage does for the memory
-- quotas, 035). A checked charge that leaves the total past storage_budget_bytes raises, and the whole statement
-- rolls back: concurrent writes of one owner, from any instance, cannot share the last bytes.
CREATE TABLE storage_usage (
  owner_id TEXT PRIMARY KEY,   -- an agent's id (ag_…) or a commercial account's (acct_…)
  bytes BIGINT NOT NULL DEFAULT 0
);

CREATE VIEW storage_charges AS SELECT CAST(NULL AS TEXT) AS owner_id, CAST(0 AS BIGINT) AS bytes, 0 AS checked WHERE false;

CREATE FUNCTION storage_charge(owner TEXT, delta BIGINT, checked INTEGER) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  total BIGINT;
  lim BIGINT;
BEGIN
  IF owner IS NULL OR delta = 0 THEN
    RETURN;
  END IF;
  IF delta < 0 THEN
    -- A removal never creates a row: the owner may be an agent being deleted.
    UPDATE storage_usage SET bytes = bytes + delta WHERE owner_id = owner;
    RETURN;
  END IF;
  INSERT INTO storage_usage AS u (owner_id, bytes) VALUES (owner, delta)
    ON CONFLICT (owner_id) DO UPDATE SET bytes = u.bytes + excluded.bytes
    RETURNING u.bytes INTO total;
  IF checked <> 0 THEN
    SELECT CAST(s.value AS BIGINT) INTO lim FROM gateway_settings s WHERE s.key = 'storage_budget_bytes';
    IF total > lim THEN
      RAISE EXCEPTION 'storage_budget_exceeded:%:%:%', total - delta, delta, lim;
    END IF;
  END IF;
END $$;

-- The view takes the same charges as on SQLite; the triggers below call storage_charge() directly, which costs less
-- than an insert through a view (about 50 us of a memory write's 900 on this machine's PostgreSQL 15).
CREATE FUNCTION storage_charges_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM storage_charge(NEW.owner_id, NEW.bytes, NEW.checked);
  RETURN NULL;
END $$;
CREATE TRIGGER storage_charges_apply INSTEAD OF INSERT ON storage_charges FOR EACH ROW EXECUTE FUNCTION storage_charges_apply();

-- Memory: entries and the history of replaced versions. memory_usage counts the owner's versions too, and forwards its
-- total to the budget when a write of an entry settles (memory_entries_ai/_au/_ad update entries or bytes last), so a
-- write's charge is its whole effect. The row lock order is the memory quotas' (memory_usage, then storage_usage).
ALTER TABLE memory_usage ADD COLUMN versions BIGINT NOT NULL DEFAULT 0;
ALTER TABLE memory_usage ADD COLUMN version_bytes BIGINT NOT NULL DEFAULT 0;
ALTER TABLE memory_usage ADD COLUMN charged BIGINT NOT NULL DEFAULT 0;

UPDATE memory_usage u SET versions = v.n, version_bytes = v.b
  FROM (SELECT e.agent_id, count(*) AS n, sum(v.size) AS b FROM memory_versions v JOIN memory_entries e ON e.id = v.entry_id
         WHERE e.agent_id IS NOT NULL GROUP BY e.agent_id) v
 WHERE u.agent_id = v.agent_id;
UPDATE memory_usage SET charged = bytes + version_bytes + 256 * (entries + versions);

CREATE FUNCTION memory_usage_storage() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  total BIGINT := NEW.bytes + NEW.version_bytes + 256 * (NEW.entries + NEW.versions);
BEGIN
  IF total <> NEW.charged THEN
    PERFORM storage_charge(NEW.agent_id, total - NEW.charged, 1);
    UPDATE memory_usage SET charged = total WHERE agent_id = NEW.agent_id;
  END IF;
  RETURN NULL;
END $$;

-- A version joins or leaves the history: counted here, forwarded when the write settles. In a cascade from a deleted
-- entry the entry is gone already and this changes nothing: the entry's BEFORE DELETE trigger took its history off.
CREATE FUNCTION memory_versions_storage() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE memory_usage SET versions = versions + 1, version_bytes = version_bytes + NEW.size
     WHERE agent_id = (SELECT e.agent_id FROM memory_entries e WHERE e.id = NEW.entry_id);
  ELSE
    UPDATE memory_usage SET versions = versions - 1, version_bytes = version_bytes - OLD.size
     WHERE agent_id = (SELECT e.agent_id FROM memory_entries e WHERE e.id = OLD.entry_id);
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION memory_entries_storage_bd() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.agent_id IS NOT NULL THEN
    UPDATE memory_usage u SET versions = u.versions - v.n, version_bytes = u.version_bytes - v.b
      FROM (SELECT count(*) AS n, coalesce(sum(size), 0) AS b FROM memory_versions WHERE entry_id = OLD.id) v
     WHERE u.agent_id = OLD.agent_id AND v.n > 0;
  END IF;
  RETURN OLD;
END $$;

-- Artifacts: the bytes and the names. The expiry sweep zeroes an expired artifact's bytes when it removes them
-- (tools/artifacts/sweep.ts), which gives them back; the row goes a week later.
CREATE FUNCTION artifacts_storage_bytes(r artifacts) RETURNS BIGINT LANGUAGE sql IMMUTABLE AS $$
  SELECT r.bytes + octet_length(r.filename) + octet_length(r.content_type) + 256
$$;
CREATE FUNCTION artifacts_storage() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM storage_charge(NEW.agent_id, artifacts_storage_bytes(NEW), 1);
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM storage_charge(NEW.agent_id, artifacts_storage_bytes(NEW) - artifacts_storage_bytes(OLD), 0);
  ELSE
    PERFORM storage_charge(OLD.agent_id, -artifacts_storage_bytes(OLD), 0);
  END IF;
  RETURN NULL;
END $$;

-- Vault entries: a put may replace an entry (an upsert), checked when it grows.
CREATE FUNCTION vault_entries_storage_bytes(r vault_entries) RETURNS BIGINT LANGUAGE sql IMMUTABLE AS $$
  SELECT octet_length(r.name) + octet_length(r.kind) + octet_length(r.metadata::text) + octet_length(r.nonce) + octet_length(r.ciphertext) + 256
$$;
CREATE FUNCTION vault_entries_storage() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM storage_charge(NEW.agent_id, vault_entries_storage_bytes(NEW), 1);
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM storage_charge(NEW.agent_id, vault_entries_storage_bytes(NEW) - vault_entries_storage_bytes(OLD), 1);
  ELSE
    PERFORM storage_charge(OLD.agent_id, -vault_entries_storage_bytes(OLD), 0);
  END IF;
  RETURN NULL;
END $$;

-- The wall: a post's text (posts are immutable; only counters change), a reaction, a follow.
CREATE FUNCTION wall_posts_storage_bytes(r wall_posts) RETURNS BIGINT LANGUAGE sql IMMUTABLE AS $$
  SELECT octet_length(r.text) + 256
$$;
CREATE FUNCTION wall_posts_storage() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM storage_charge(NEW.agent_id, wall_posts_storage_bytes(NEW), 1);
  ELSE
    PERFORM storage_charge(OLD.agent_id, -wall_posts_storage_bytes(OLD), 0);
  END IF;
  RETURN NULL;
END $$;
CREATE FUNCTION wall_reactions_storage_bytes(r wall_reactions) RETURNS BIGINT LANGUAGE sql IMMUTABLE AS $$
  SELECT 256
$$;
CREATE FUNCTION wall_reactions_storage() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM storage_charge(NEW.agent_id, wall_reactions_storage_bytes(NEW), 1);
  ELSE
    PERFORM storage_charge(OLD.agent_id, -wall_reactions_storage_bytes(OLD), 0);
  END IF;
  RETURN NULL;
END $$;
CREATE FUNCTION follows_storage_bytes(r follows) RETURNS BIGINT LANGUAGE sql IMMUTABLE AS $$
  SELECT 256
$$;
CREATE FUNCTION follows_storage() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM storage_charge(NEW.follower_id, follows_storage_bytes(NEW), 1);
  ELSE
    PERFORM storage_charge(OLD.follower_id, -follows_storage_bytes(OLD), 0);
  END IF;
  RETURN NULL;
END $$;

-- Mail is charged to its sender until the row goes (both parties removed it, or either agent was deleted).
CREATE FUNCTION mail_storage_bytes(r mail) RETURNS BIGINT LANGUAGE sql IMMUTABLE AS $$
  SELECT octet_length(r.subject) + octet_length(r.body) + 256
$$;
CREATE FUNCTION mail_storage() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM storage_charge(NEW.from_id, mail_storage_bytes(NEW), 1);
  ELSE
    PERFORM storage_charge(OLD.from_id, -mail_storage_bytes(OLD), 0);
  END IF;
  RETURN NULL;
END $$;

-- Jobs and handoffs: checked when made; their outcome, written by the gateway, is charged unchecked.
CREATE FUNCTION jobs_storage_bytes(r jobs) RETURNS BIGINT LANGUAGE sql IMMUTABLE AS $$
  SELECT octet_length(r.input::text) + coalesce(octet_length(r.callback_url), 0) + coalesce(octet_length(r.callback_secret), 0)
    + coalesce(octet_length(r.result::text), 0) + coalesce(octet_length(r.error), 0) + coalesce(octet_length(r.callback::text), 0) + 256
$$;
CREATE FUNCTION jobs_storage() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM storage_charge(NEW.agent_id, jobs_storage_bytes(NEW), 1);
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM storage_charge(NEW.agent_id, jobs_storage_bytes(NEW) - jobs_storage_bytes(OLD), 0);
  ELSE
    PERFORM storage_charge(OLD.agent_id, -jobs_storage_bytes(OLD), 0);
  END IF;
  RETURN NULL;
END $$;
CREATE FUNCTION handoffs_storage_bytes(r handoffs) RETURNS BIGINT LANGUAGE sql IMMUTABLE AS $$
  SELECT octet_length(r.task) + octet_length(r.context::text) + coalesce(octet_length(r.callback_url), 0) + coalesce(octet_length(r.callback_secret), 0)
    + coalesce(octet_length(r.result::text), 0) + coalesce(octet_length(r.reason), 0) + coalesce(octet_length(r.callback::text), 0) + 256
$$;
CREATE FUNCTION handoffs_storage() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM storage_charge(NEW.agent_id, handoffs_storage_bytes(NEW), 1);
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM storage_charge(NEW.agent_id, handoffs_storage_bytes(NEW) - handoffs_storage_bytes(OLD), 0);
  ELSE
    PERFORM storage_charge(OLD.agent_id, -handoffs_storage_bytes(OLD), 0);
  END IF;
  RETURN NULL;
END $$;

-- Watches: what the agent gave (the check's own fields are a hash and a short error, within the row's 256).
CREATE FUNCTION watches_storage_bytes(r watches) RETURNS BIGINT LANGUAGE sql IMMUTABLE AS $$
  SELECT octet_length(r.url) + coalesce(octet_length(r.selector), 0) + coalesce(octet_length(r.callback_url), 0) + 256
$$;
CREATE FUNCTION watches_storage() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM storage_charge(NEW.agent_id, watches_storage_bytes(NEW), 1);
  ELSE
    PERFORM storage_charge(OLD.agent_id, -watches_storage_bytes(OLD), 0);
  END IF;
  RETURN NULL;
END $$;

-- Webhook deliveries are the gateway's record of a callback the agent asked for: charged, never refused.
CREATE FUNCTION webhook_deliveries_storage_bytes(r webhook_deliveries) RETURNS BIGINT LANGUAGE sql IMMUTABLE AS $$
  SELECT octet_length(r.url) + octet_length(r.body) + octet_length(r.secret) + 256
$$;
CREATE FUNCTION webhook_deliveries_storage() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM storage_charge(NEW.agent_id, webhook_deliveries_storage_bytes(NEW), 0);
  ELSE
    PERFORM storage_charge(OLD.agent_id, -webhook_deliveries_storage_bytes(OLD), 0);
  END IF;
  RETURN NULL;
END $$;

-- A2A tasks of an agent: checked when created; the task's progress (status, history, artifacts) unchecked.
CREATE FUNCTION a2a_tasks_storage_bytes(r a2a_tasks) RETURNS BIGINT LANGUAGE sql IMMUTABLE AS $$
  SELECT octet_length(r.status::text) + octet_length(r.history::text) + octet_length(r.artifacts::text) + 256
$$;
CREATE FUNCTION a2a_tasks_storage() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM storage_charge(NEW.agent_id, a2a_tasks_storage_bytes(NEW), 1);
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM storage_charge(NEW.agent_id, a2a_tasks_storage_bytes(NEW) - a2a_tasks_storage_bytes(OLD), 0);
  ELSE
    PERFORM storage_charge(OLD.agent_id, -a2a_tasks_storage_bytes(OLD), 0);
  END IF;
  RETURN NULL;
END $$;

-- MCP tasks follow a job that was checked when it was made: charged, never refused.
CREATE FUNCTION mcp_tasks_storage_bytes(r mcp_tasks) RETURNS BIGINT LANGUAGE sql IMMUTABLE AS $$
  SELECT octet_length(r.tool) + octet_length(r.work_id) + 256
$$;
CREATE FUNCTION mcp_tasks_storage() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM storage_charge(NEW.agent_id, mcp_tasks_storage_bytes(NEW), 0);
  ELSE
    PERFORM storage_charge(OLD.agent_id, -mcp_tasks_storage_bytes(OLD), 0);
  END IF;
  RETURN NULL;
END $$;

-- Orders belong to a commercial account, not an agent: charged to the account, checked when placed.
CREATE FUNCTION orders_storage_bytes(r orders) RETURNS BIGINT LANGUAGE sql IMMUTABLE AS $$
  SELECT octet_length(r.input::text) + coalesce(octet_length(r.result::text), 0) + coalesce(octet_length(r.usage::text), 0) + coalesce(octet_length(r.error), 0)
    + coalesce(octet_length(r.hold_data::text), 0) + coalesce(octet_length(r.revision_notes), 0) + coalesce(octet_length(r.webhook_url), 0) + coalesce(octet_length(r.webhook_secret), 0) + 256
$$;
CREATE FUNCTION orders_storage() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM storage_charge(NEW.account_id, orders_storage_bytes(NEW), 1);
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM storage_charge(NEW.account_id, orders_storage_bytes(NEW) - orders_storage_bytes(OLD), 0);
  ELSE
    PERFORM storage_charge(OLD.account_id, -orders_storage_bytes(OLD), 0);
  END IF;
  RETURN NULL;
END $$;

-- The backfill: what every owner holds now, by the measures above.
INSERT INTO storage_usage (owner_id, bytes)
SELECT owner_id, sum(bytes) FROM (
  SELECT agent_id AS owner_id, charged AS bytes FROM memory_usage
  UNION ALL SELECT r.agent_id, artifacts_storage_bytes(r) FROM artifacts r WHERE r.agent_id IS NOT NULL
  UNION ALL SELECT r.agent_id, vault_entries_storage_bytes(r) FROM vault_entries r
  UNION ALL SELECT r.agent_id, wall_posts_storage_bytes(r) FROM wall_posts r
  UNION ALL SELECT r.agent_id, wall_reactions_storage_bytes(r) FROM wall_reactions r
  UNION ALL SELECT r.follower_id, follows_storage_bytes(r) FROM follows r
  UNION ALL SELECT r.from_id, mail_storage_bytes(r) FROM mail r
  UNION ALL SELECT r.agent_id, jobs_storage_bytes(r) FROM jobs r WHERE r.agent_id IS NOT NULL
  UNION ALL SELECT r.agent_id, handoffs_storage_bytes(r) FROM handoffs r WHERE r.agent_id IS NOT NULL
  UNION ALL SELECT r.agent_id, watches_storage_bytes(r) FROM watches r
  UNION ALL SELECT r.agent_id, webhook_deliveries_storage_bytes(r) FROM webhook_deliveries r WHERE r.agent_id IS NOT NULL
  UNION ALL SELECT r.agent_id, a2a_tasks_storage_bytes(r) FROM a2a_tasks r WHERE r.agent_id IS NOT NULL
  UNION ALL SELECT r.agent_id, mcp_tasks_storage_bytes(r) FROM mcp_tasks r WHERE r.agent_id IS NOT NULL
  UNION ALL SELECT r.account_id, orders_storage_bytes(r) FROM orders r
) s WHERE owner_id IS NOT NULL GROUP BY owner_id;

CREATE TRIGGER memory_usage_storage_ai AFTER INSERT ON memory_usage FOR EACH ROW EXECUTE FUNCTION memory_usage_storage();
CREATE TRIGGER memory_usage_storage_au AFTER UPDATE OF entries, bytes ON memory_usage FOR EACH ROW EXECUTE FUNCTION memory_usage_storage();
CREATE TRIGGER memory_versions_storage_ai AFTER INSERT ON memory_versions FOR EACH ROW EXECUTE FUNCTION memory_versions_storage();
CREATE TRIGGER memory_versions_storage_ad AFTER DELETE ON memory_versions FOR EACH ROW EXECUTE FUNCTION memory_versions_storage();
CREATE TRIGGER memory_entries_storage_bd BEFORE DELETE ON memory_entries FOR EACH ROW EXECUTE FUNCTION memory_entries_storage_bd();

-- An agent's counter goes with it.
CREATE FUNCTION agents_storage_ad() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM storage_usage WHERE owner_id = OLD.id;
  RETURN NULL;
END $$;
CREATE TRIGGER agents_storage_ad AFTER DELETE ON agents FOR EACH ROW EXECUTE FUNCTION agents_storage_ad();

CREATE TRIGGER artifacts_storage_ai AFTER INSERT ON artifacts FOR EACH ROW EXECUTE FUNCTION artifacts_storage();
CREATE TRIGGER artifacts_storage_au AFTER UPDATE OF bytes ON artifacts FOR EACH ROW EXECUTE FUNCTION artifacts_storage();
CREATE TRIGGER artifacts_storage_ad AFTER DELETE ON artifacts FOR EACH ROW EXECUTE FUNCTION artifacts_storage();
CREATE TRIGGER vault_entries_storage_ai AFTER INSERT ON vault_entries FOR EACH ROW EXECUTE FUNCTION vault_entries_storage();
CREATE TRIGGER vault_entries_storage_au AFTER UPDATE OF kind, metadata, nonce, ciphertext ON vault_entries FOR EACH ROW EXECUTE FUNCTION vault_entries_storage();
CREATE TRIGGER vault_entries_storage_ad AFTER DELETE ON vault_entries FOR EACH ROW EXECUTE FUNCTION vault_entries_storage();
CREATE TRIGGER wall_posts_storage_ai AFTER INSERT ON wall_posts FOR EACH ROW EXECUTE FUNCTION wall_posts_storage();
CREATE TRIGGER wall_posts_storage_ad AFTER DELETE ON wall_posts FOR EACH ROW EXECUTE FUNCTION wall_posts_storage();
CREATE TRIGGER wall_reactions_storage_ai AFTER INSERT ON wall_reactions FOR EACH ROW EXECUTE FUNCTION wall_reactions_storage();
CREATE TRIGGER wall_reactions_storage_ad AFTER DELETE ON wall_reactions FOR EACH ROW EXECUTE FUNCTION wall_reactions_storage();
CREATE TRIGGER follows_storage_ai AFTER INSERT ON follows FOR EACH ROW EXECUTE FUNCTION follows_storage();
CREATE TRIGGER follows_storage_ad AFTER DELETE ON follows FOR EACH ROW EXECUTE FUNCTION follows_storage();
CREATE TRIGGER mail_storage_ai AFTER INSERT ON mail FOR EACH ROW EXECUTE FUNCTION mail_storage();
CREATE TRIGGER mail_storage_ad AFTER DELETE ON mail FOR EACH ROW EXECUTE FUNCTION mail_storage();
CREATE TRIGGER jobs_storage_ai AFTER INSERT ON jobs FOR EACH ROW EXECUTE FUNCTION jobs_storage();
CREATE TRIGGER jobs_storage_au AFTER UPDATE OF result, error, callback ON jobs FOR EACH ROW EXECUTE FUNCTION jobs_storage();
CREATE TRIGGER jobs_storage_ad AFTER DELETE ON jobs FOR EACH ROW EXECUTE FUNCTION jobs_storage();
CREATE TRIGGER handoffs_storage_ai AFTER INSERT ON handoffs FOR EACH ROW EXECUTE FUNCTION handoffs_storage();
CREATE TRIGGER handoffs_storage_au AFTER UPDATE OF result, reason, callback ON handoffs FOR EACH ROW EXECUTE FUNCTION handoffs_storage();
CREATE TRIGGER handoffs_storage_ad AFTER DELETE ON handoffs FOR EACH ROW EXECUTE FUNCTION handoffs_storage();
CREATE TRIGGER watches_storage_ai AFTER INSERT ON watches FOR EACH ROW EXECUTE FUNCTION watches_storage();
CREATE TRIGGER watches_storage_ad AFTER DELETE ON watches FOR EACH ROW EXECUTE FUNCTION watches_storage();
CREATE TRIGGER webhook_deliveries_storage_ai AFTER INSERT ON webhook_deliveries FOR EACH ROW EXECUTE FUNCTION webhook_deliveries_storage();
CREATE TRIGGER webhook_deliveries_storage_ad AFTER DELETE ON webhook_deliveries FOR EACH ROW EXECUTE FUNCTION webhook_deliveries_storage();
CREATE TRIGGER a2a_tasks_storage_ai AFTER INSERT ON a2a_tasks FOR EACH ROW EXECUTE FUNCTION a2a_tasks_storage();
CREATE TRIGGER a2a_tasks_storage_au AFTER UPDATE OF status, history, artifacts ON a2a_tasks FOR EACH ROW EXECUTE FUNCTION a2a_tasks_storage();
CREATE TRIGGER a2a_tasks_storage_ad AFTER DELETE ON a2a_tasks FOR EACH ROW EXECUTE FUNCTION a2a_tasks_storage();
CREATE TRIGGER mcp_tasks_storage_ai AFTER INSERT ON mcp_tasks FOR EACH ROW EXECUTE FUNCTION mcp_tasks_storage();
CREATE TRIGGER mcp_tasks_storage_ad AFTER DELETE ON mcp_tasks FOR EACH ROW EXECUTE FUNCTION mcp_tasks_storage();
CREATE TRIGGER orders_storage_ai AFTER INSERT ON orders FOR EACH ROW EXECUTE FUNCTION orders_storage();
CREATE TRIGGER orders_storage_au AFTER UPDATE OF result, usage, error, hold_data, revision_notes ON orders FOR EACH ROW EXECUTE FUNCTION orders_storage();
CREATE TRIGGER orders_storage_ad AFTER DELETE ON orders FOR EACH ROW EXECUTE FUNCTION orders_storage();
