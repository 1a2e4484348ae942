-- The per-agent storage budget (issue 42, docs/decisions/storage-budget.md): every row an agent causes is charged to
-- its owner (an agent, or a commercial account for its orders) at its content's bytes plus 256 for the row, kept in
-- one counter row per owner, storage_usage. Every charge goes through the view storage_charges, whose INSTEAD OF
-- trigger is the one place that adds to the counter and refuses: a charge marked `checked` (a write the owner asked
-- for) that would take the owner past the setting storage_budget_bytes (GATEWAY_AGENT_STORAGE_BYTES, written at
-- start-up; no setting, no limit) aborts the whole statement with storage_budget_exceeded:<used>:<size>:<limit>.
-- Work the gateway does afterwards on an accepted row (a job's result, a task's progress, a delivery record) is
-- charged unchecked, and removals give the bytes back. SQLite has one writer, so checking before adding is exact.
CREATE TABLE storage_usage (
  owner_id TEXT PRIMARY KEY,   -- an agent's id (ag_…) or a commercial account's (acct_…)
  bytes INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;

CREATE VIEW storage_charges (owner_id, bytes, checked) AS SELECT NULL, 0, 0 WHERE 0;

CREATE TRIGGER storage_charges_apply INSTEAD OF INSERT ON storage_charges
WHEN NEW.owner_id IS NOT NULL AND NEW.bytes <> 0
BEGIN
  SELECT RAISE(ABORT, 'storage_budget_exceeded:' || used || ':' || NEW.bytes || ':' || lim)
    FROM (SELECT ifnull((SELECT bytes FROM storage_usage WHERE owner_id = NEW.owner_id), 0) AS used,
                 (SELECT CAST(value AS INTEGER) FROM gateway_settings WHERE key = 'storage_budget_bytes') AS lim)
   WHERE NEW.checked AND NEW.bytes > 0 AND used + NEW.bytes > lim;
  INSERT INTO storage_usage (owner_id, bytes) SELECT NEW.owner_id, NEW.bytes WHERE NEW.bytes > 0
    ON CONFLICT (owner_id) DO UPDATE SET bytes = bytes + excluded.bytes;
  -- A removal never creates a row: the owner may be an agent being deleted.
  UPDATE storage_usage SET bytes = bytes + NEW.bytes WHERE NEW.bytes < 0 AND owner_id = NEW.owner_id;
END;

-- Memory: entries and the history of replaced versions. memory_usage already counts the entries (its row is the
-- memory quotas' counter); it now counts the owner's versions too, and forwards its total to the budget when a write
-- of an entry settles (memory_entries_ai/_au/_ad update entries or bytes last), so a write's charge is its whole
-- effect: the value, the replaced version joining the history, the versions pruned. `charged` is what was forwarded.
ALTER TABLE memory_usage ADD COLUMN versions INTEGER NOT NULL DEFAULT 0;
ALTER TABLE memory_usage ADD COLUMN version_bytes INTEGER NOT NULL DEFAULT 0;
ALTER TABLE memory_usage ADD COLUMN charged INTEGER NOT NULL DEFAULT 0;

UPDATE memory_usage SET
  versions = (SELECT count(*) FROM memory_versions v JOIN memory_entries e ON e.id = v.entry_id WHERE e.agent_id = memory_usage.agent_id),
  version_bytes = (SELECT ifnull(sum(v.size), 0) FROM memory_versions v JOIN memory_entries e ON e.id = v.entry_id WHERE e.agent_id = memory_usage.agent_id);
UPDATE memory_usage SET charged = bytes + version_bytes + 256 * (entries + versions);

-- The backfill: what every owner holds now, by the same measures as the triggers below.
INSERT INTO storage_usage (owner_id, bytes)
SELECT owner_id, sum(bytes) FROM (
  SELECT agent_id AS owner_id, charged AS bytes FROM memory_usage
  UNION ALL SELECT agent_id, bytes + octet_length(filename) + octet_length(content_type) + 256 FROM artifacts WHERE agent_id IS NOT NULL
  UNION ALL SELECT agent_id, octet_length(name) + octet_length(kind) + octet_length(metadata) + octet_length(nonce) + octet_length(ciphertext) + 256 FROM vault_entries
  UNION ALL SELECT agent_id, octet_length(text) + 256 FROM wall_posts
  UNION ALL SELECT agent_id, 256 FROM wall_reactions
  UNION ALL SELECT follower_id, 256 FROM follows
  UNION ALL SELECT from_id, octet_length(subject) + octet_length(body) + 256 FROM mail
  UNION ALL SELECT agent_id, octet_length(input) + ifnull(octet_length(callback_url), 0) + ifnull(octet_length(callback_secret), 0)
      + ifnull(octet_length(result), 0) + ifnull(octet_length(error), 0) + ifnull(octet_length(callback), 0) + 256 FROM jobs WHERE agent_id IS NOT NULL
  UNION ALL SELECT agent_id, octet_length(task) + octet_length(context) + ifnull(octet_length(callback_url), 0) + ifnull(octet_length(callback_secret), 0)
      + ifnull(octet_length(result), 0) + ifnull(octet_length(reason), 0) + ifnull(octet_length(callback), 0) + 256 FROM handoffs WHERE agent_id IS NOT NULL
  UNION ALL SELECT agent_id, octet_length(url) + ifnull(octet_length(selector), 0) + ifnull(octet_length(callback_url), 0) + 256 FROM watches
  UNION ALL SELECT agent_id, octet_length(url) + octet_length(body) + octet_length(secret) + 256 FROM webhook_deliveries WHERE agent_id IS NOT NULL
  UNION ALL SELECT agent_id, octet_length(status) + octet_length(history) + octet_length(artifacts) + 256 FROM a2a_tasks WHERE agent_id IS NOT NULL
  UNION ALL SELECT agent_id, octet_length(tool) + octet_length(work_id) + 256 FROM mcp_tasks WHERE agent_id IS NOT NULL
  UNION ALL SELECT account_id, octet_length(input) + ifnull(octet_length(result), 0) + ifnull(octet_length(usage), 0) + ifnull(octet_length(error), 0)
      + ifnull(octet_length(hold_data), 0) + ifnull(octet_length(revision_notes), 0) + ifnull(octet_length(webhook_url), 0) + ifnull(octet_length(webhook_secret), 0) + 256 FROM orders
) WHERE owner_id IS NOT NULL GROUP BY owner_id;

CREATE TRIGGER memory_usage_storage_ai AFTER INSERT ON memory_usage
WHEN NEW.bytes + NEW.version_bytes + 256 * (NEW.entries + NEW.versions) <> NEW.charged
BEGIN
  INSERT INTO storage_charges (owner_id, bytes, checked) VALUES (NEW.agent_id, NEW.bytes + NEW.version_bytes + 256 * (NEW.entries + NEW.versions) - NEW.charged, 1);
  UPDATE memory_usage SET charged = bytes + version_bytes + 256 * (entries + versions) WHERE agent_id = NEW.agent_id;
END;

CREATE TRIGGER memory_usage_storage_au AFTER UPDATE OF entries, bytes ON memory_usage
WHEN NEW.bytes + NEW.version_bytes + 256 * (NEW.entries + NEW.versions) <> NEW.charged
BEGIN
  INSERT INTO storage_charges (owner_id, bytes, checked) VALUES (NEW.agent_id, NEW.bytes + NEW.version_bytes + 256 * (NEW.entries + NEW.versions) - NEW.charged, 1);
  UPDATE memory_usage SET charged = bytes + version_bytes + 256 * (entries + versions) WHERE agent_id = NEW.agent_id;
END;

-- A version joins or leaves the history (memory_entries_au, an import, pruning): counted, forwarded when the write
-- settles. During a cascade from a deleted entry the entry is gone already and this changes nothing: the entry's
-- BEFORE DELETE trigger took its whole history off.
CREATE TRIGGER memory_versions_storage_ai AFTER INSERT ON memory_versions BEGIN
  UPDATE memory_usage SET versions = versions + 1, version_bytes = version_bytes + NEW.size
   WHERE agent_id = (SELECT agent_id FROM memory_entries WHERE id = NEW.entry_id);
END;

CREATE TRIGGER memory_versions_storage_ad AFTER DELETE ON memory_versions BEGIN
  UPDATE memory_usage SET versions = versions - 1, version_bytes = version_bytes - OLD.size
   WHERE agent_id = (SELECT agent_id FROM memory_entries WHERE id = OLD.entry_id);
END;

CREATE TRIGGER memory_entries_storage_bd BEFORE DELETE ON memory_entries
WHEN OLD.agent_id IS NOT NULL AND EXISTS (SELECT 1 FROM memory_versions WHERE entry_id = OLD.id)
BEGIN
  UPDATE memory_usage SET
    versions = versions - (SELECT count(*) FROM memory_versions WHERE entry_id = OLD.id),
    version_bytes = version_bytes - (SELECT ifnull(sum(size), 0) FROM memory_versions WHERE entry_id = OLD.id)
   WHERE agent_id = OLD.agent_id;
END;

-- Artifacts: the bytes and the names. The expiry sweep zeroes an expired artifact's bytes when it removes them
-- (tools/artifacts/sweep.ts), which gives them back; the row goes a week later.
CREATE TRIGGER artifacts_storage_ai AFTER INSERT ON artifacts BEGIN
  INSERT INTO storage_charges VALUES (NEW.agent_id, NEW.bytes + octet_length(NEW.filename) + octet_length(NEW.content_type) + 256, 1);
END;
CREATE TRIGGER artifacts_storage_au AFTER UPDATE OF bytes ON artifacts BEGIN
  INSERT INTO storage_charges VALUES (NEW.agent_id, NEW.bytes - OLD.bytes, 0);
END;
CREATE TRIGGER artifacts_storage_ad AFTER DELETE ON artifacts BEGIN
  INSERT INTO storage_charges VALUES (OLD.agent_id, -(OLD.bytes + octet_length(OLD.filename) + octet_length(OLD.content_type) + 256), 0);
END;

-- Vault entries: a put may replace an entry (an upsert), checked when it grows.
CREATE TRIGGER vault_entries_storage_ai AFTER INSERT ON vault_entries BEGIN
  INSERT INTO storage_charges VALUES (NEW.agent_id, octet_length(NEW.name) + octet_length(NEW.kind) + octet_length(NEW.metadata) + octet_length(NEW.nonce) + octet_length(NEW.ciphertext) + 256, 1);
END;
CREATE TRIGGER vault_entries_storage_au AFTER UPDATE OF kind, metadata, nonce, ciphertext ON vault_entries BEGIN
  INSERT INTO storage_charges VALUES (NEW.agent_id,
    octet_length(NEW.kind) + octet_length(NEW.metadata) + octet_length(NEW.nonce) + octet_length(NEW.ciphertext)
    - octet_length(OLD.kind) - octet_length(OLD.metadata) - octet_length(OLD.nonce) - octet_length(OLD.ciphertext), 1);
END;
CREATE TRIGGER vault_entries_storage_ad AFTER DELETE ON vault_entries BEGIN
  INSERT INTO storage_charges VALUES (OLD.agent_id, -(octet_length(OLD.name) + octet_length(OLD.kind) + octet_length(OLD.metadata) + octet_length(OLD.nonce) + octet_length(OLD.ciphertext) + 256), 0);
END;

-- The wall: a post's text (posts are immutable; only counters change), a reaction, a follow.
CREATE TRIGGER wall_posts_storage_ai AFTER INSERT ON wall_posts BEGIN
  INSERT INTO storage_charges VALUES (NEW.agent_id, octet_length(NEW.text) + 256, 1);
END;
CREATE TRIGGER wall_posts_storage_ad AFTER DELETE ON wall_posts BEGIN
  INSERT INTO storage_charges VALUES (OLD.agent_id, -(octet_length(OLD.text) + 256), 0);
END;
CREATE TRIGGER wall_reactions_storage_ai AFTER INSERT ON wall_reactions BEGIN
  INSERT INTO storage_charges VALUES (NEW.agent_id, 256, 1);
END;
CREATE TRIGGER wall_reactions_storage_ad AFTER DELETE ON wall_reactions BEGIN
  INSERT INTO storage_charges VALUES (OLD.agent_id, -256, 0);
END;
CREATE TRIGGER follows_storage_ai AFTER INSERT ON follows BEGIN
  INSERT INTO storage_charges VALUES (NEW.follower_id, 256, 1);
END;
CREATE TRIGGER follows_storage_ad AFTER DELETE ON follows BEGIN
  INSERT INTO storage_charges VALUES (OLD.follower_id, -256, 0);
END;

-- Mail is charged to its sender until the row goes (both parties removed it, or either agent was deleted).
CREATE TRIGGER mail_storage_ai AFTER INSERT ON mail BEGIN
  INSERT INTO storage_charges VALUES (NEW.from_id, octet_length(NEW.subject) + octet_length(NEW.body) + 256, 1);
END;
CREATE TRIGGER mail_storage_ad AFTER DELETE ON mail BEGIN
  INSERT INTO storage_charges VALUES (OLD.from_id, -(octet_length(OLD.subject) + octet_length(OLD.body) + 256), 0);
END;

-- Jobs and handoffs: checked when made; their outcome, written by the gateway, is charged unchecked.
CREATE TRIGGER jobs_storage_ai AFTER INSERT ON jobs BEGIN
  INSERT INTO storage_charges VALUES (NEW.agent_id, octet_length(NEW.input) + ifnull(octet_length(NEW.callback_url), 0) + ifnull(octet_length(NEW.callback_secret), 0)
    + ifnull(octet_length(NEW.result), 0) + ifnull(octet_length(NEW.error), 0) + ifnull(octet_length(NEW.callback), 0) + 256, 1);
END;
CREATE TRIGGER jobs_storage_au AFTER UPDATE OF result, error, callback ON jobs BEGIN
  INSERT INTO storage_charges VALUES (NEW.agent_id,
    ifnull(octet_length(NEW.result), 0) + ifnull(octet_length(NEW.error), 0) + ifnull(octet_length(NEW.callback), 0)
    - ifnull(octet_length(OLD.result), 0) - ifnull(octet_length(OLD.error), 0) - ifnull(octet_length(OLD.callback), 0), 0);
END;
CREATE TRIGGER jobs_storage_ad AFTER DELETE ON jobs BEGIN
  INSERT INTO storage_charges VALUES (OLD.agent_id, -(octet_length(OLD.input) + ifnull(octet_length(OLD.callback_url), 0) + ifnull(octet_length(OLD.callback_secret), 0)
    + ifnull(octet_length(OLD.result), 0) + ifnull(octet_length(OLD.error), 0) + ifnull(octet_length(OLD.callback), 0) + 256), 0);
END;

CREATE TRIGGER handoffs_storage_ai AFTER INSERT ON handoffs BEGIN
  INSERT INTO storage_charges VALUES (NEW.agent_id, octet_length(NEW.task) + octet_length(NEW.context) + ifnull(octet_length(NEW.callback_url), 0) + ifnull(octet_length(NEW.callback_secret), 0)
    + ifnull(octet_length(NEW.result), 0) + ifnull(octet_length(NEW.reason), 0) + ifnull(octet_length(NEW.callback), 0) + 256, 1);
END;
CREATE TRIGGER handoffs_storage_au AFTER UPDATE OF result, reason, callback ON handoffs BEGIN
  INSERT INTO storage_charges VALUES (NEW.agent_id,
    ifnull(octet_length(NEW.result), 0) + ifnull(octet_length(NEW.reason), 0) + ifnull(octet_length(NEW.callback), 0)
    - ifnull(octet_length(OLD.result), 0) - ifnull(octet_length(OLD.reason), 0) - ifnull(octet_length(OLD.callback), 0), 0);
END;
CREATE TRIGGER handoffs_storage_ad AFTER DELETE ON handoffs BEGIN
  INSERT INTO storage_charges VALUES (OLD.agent_id, -(octet_length(OLD.task) + octet_length(OLD.context) + ifnull(octet_length(OLD.callback_url), 0) + ifnull(octet_length(OLD.callback_secret), 0)
    + ifnull(octet_length(OLD.result), 0) + ifnull(octet_length(OLD.reason), 0) + ifnull(octet_length(OLD.callback), 0) + 256), 0);
END;

-- Watches: what the agent gave (the check's own fields are a hash and a short error, within the row's 256).
CREATE TRIGGER watches_storage_ai AFTER INSERT ON watches BEGIN
  INSERT INTO storage_charges VALUES (NEW.agent_id, octet_length(NEW.url) + ifnull(octet_length(NEW.selector), 0) + ifnull(octet_length(NEW.callback_url), 0) + 256, 1);
END;
CREATE TRIGGER watches_storage_ad AFTER DELETE ON watches BEGIN
  INSERT INTO storage_charges VALUES (OLD.agent_id, -(octet_length(OLD.url) + ifnull(octet_length(OLD.selector), 0) + ifnull(octet_length(OLD.callback_url), 0) + 256), 0);
END;

-- Webhook deliveries are the gateway's record of a callback the agent asked for: charged, never refused.
CREATE TRIGGER webhook_deliveries_storage_ai AFTER INSERT ON webhook_deliveries BEGIN
  INSERT INTO storage_charges VALUES (NEW.agent_id, octet_length(NEW.url) + octet_length(NEW.body) + octet_length(NEW.secret) + 256, 0);
END;
CREATE TRIGGER webhook_deliveries_storage_ad AFTER DELETE ON webhook_deliveries BEGIN
  INSERT INTO storage_charges VALUES (OLD.agent_id, -(octet_length(OLD.url) + octet_length(OLD.body) + octet_length(OLD.secret) + 256), 0);
END;

-- A2A tasks of an agent: checked when created; the task's progress (status, history, artifacts) unchecked.
CREATE TRIGGER a2a_tasks_storage_ai AFTER INSERT ON a2a_tasks BEGIN
  INSERT INTO storage_charges VALUES (NEW.agent_id, octet_length(NEW.status) + octet_length(NEW.history) + octet_length(NEW.artifacts) + 256, 1);
END;
CREATE TRIGGER a2a_tasks_storage_au AFTER UPDATE OF status, history, artifacts ON a2a_tasks BEGIN
  INSERT INTO storage_charges VALUES (NEW.agent_id,
    octet_length(NEW.status) + octet_length(NEW.history) + octet_length(NEW.artifacts) - octet_length(OLD.status) - octet_length(OLD.history) - octet_length(OLD.artifacts), 0);
END;
CREATE TRIGGER a2a_tasks_storage_ad AFTER DELETE ON a2a_tasks BEGIN
  INSERT INTO storage_charges VALUES (OLD.agent_id, -(octet_length(OLD.status) + octet_length(OLD.history) + octet_length(OLD.artifacts) + 256), 0);
END;

-- MCP tasks follow a job that was checked when it was made: charged, never refused.
CREATE TRIGGER mcp_tasks_storage_ai AFTER INSERT ON mcp_tasks BEGIN
  INSERT INTO storage_charges VALUES (NEW.agent_id, octet_length(NEW.tool) + octet_length(NEW.work_id) + 256, 0);
END;
CREATE TRIGGER mcp_tasks_storage_ad AFTER DELETE ON mcp_tasks BEGIN
  INSERT INTO storage_charges VALUES (OLD.agent_id, -(octet_length(OLD.tool) + octet_length(OLD.work_id) + 256), 0);
END;

-- Orders belong to a commercial account, not an agent: charged to the account, checked when placed.
CREATE TRIGGER orders_storage_ai AFTER INSERT ON orders BEGIN
  INSERT INTO storage_charges VALUES (NEW.account_id, octet_length(NEW.input) + ifnull(octet_length(NEW.result), 0) + ifnull(octet_length(NEW.usage), 0) + ifnull(octet_length(NEW.error), 0)
    + ifnull(octet_length(NEW.hold_data), 0) + ifnull(octet_length(NEW.revision_notes), 0) + ifnull(octet_length(NEW.webhook_url), 0) + ifnull(octet_length(NEW.webhook_secret), 0) + 256, 1);
END;
CREATE TRIGGER orders_storage_au AFTER UPDATE OF result, usage, error, hold_data, revision_notes ON orders BEGIN
  INSERT INTO storage_charges VALUES (NEW.account_id,
    ifnull(octet_length(NEW.result), 0) + ifnull(octet_length(NEW.usage), 0) + ifnull(octet_length(NEW.error), 0) + ifnull(octet_length(NEW.hold_data), 0) + ifnull(octet_length(NEW.revision_notes), 0)
    - ifnull(octet_length(OLD.result), 0) - ifnull(octet_length(OLD.usage), 0) - ifnull(octet_length(OLD.error), 0) - ifnull(octet_length(OLD.hold_data), 0) - ifnull(octet_length(OLD.revision_notes), 0), 0);
END;
CREATE TRIGGER orders_storage_ad AFTER DELETE ON orders BEGIN
  INSERT INTO storage_charges VALUES (OLD.account_id, -(octet_length(OLD.input) + ifnull(octet_length(OLD.result), 0) + ifnull(octet_length(OLD.usage), 0) + ifnull(octet_length(OLD.error), 0)
    + ifnull(octet_length(OLD.hold_data), 0) + ifnull(octet_length(OLD.revision_notes), 0) + ifnull(octet_length(OLD.webhook_url), 0) + ifnull(octet_length(OLD.webhook_secret), 0) + 256), 0);
END;

-- An agent's counter goes with it (after its rows, whose removals found it still there or changed nothing).
CREATE TRIGGER agents_storage_ad AFTER DELETE ON agents BEGIN
  DELETE FROM storage_usage WHERE owner_id = OLD.id;
END;
