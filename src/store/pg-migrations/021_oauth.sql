-- PostgreSQL port of migrations/021_oauth.sql. OAuth 2.1 authorization server state (oidc-provider's models).
-- The key is the SHA-256 of the model's id, so a token or code read from the database cannot be presented; the
-- payload (JSON) is stored without its id for the same reason. json_set(payload, '$.consumed', ?) is
-- jsonb_set on the payload cast to JSONB, cast back, here (src/store/oauth.ts).
CREATE TABLE oauth_records (
  kind TEXT NOT NULL,
  id_hash TEXT NOT NULL,
  payload JSON NOT NULL,
  grant_id TEXT,
  uid TEXT,
  account_id TEXT,
  client_id TEXT,
  expires_at BIGINT,
  PRIMARY KEY (kind, id_hash)
);
CREATE INDEX oauth_records_grant ON oauth_records(grant_id) WHERE grant_id IS NOT NULL;
CREATE INDEX oauth_records_uid ON oauth_records(uid) WHERE uid IS NOT NULL;
CREATE INDEX oauth_records_account ON oauth_records(account_id, kind) WHERE account_id IS NOT NULL;
CREATE INDEX oauth_records_expiry ON oauth_records(expires_at) WHERE expires_at IS NOT NULL;

-- What the agent consented to, per grant: the client as it named itself then, for the connected-clients list.
CREATE TABLE oauth_consents (
  grant_id TEXT PRIMARY KEY,
  agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  client_id TEXT NOT NULL,
  client_name TEXT,
  client_uri TEXT,
  scope TEXT NOT NULL,
  created_at BIGINT NOT NULL
);
CREATE INDEX oauth_consents_agent ON oauth_consents(agent_id, client_id);

-- Deleting an agent ends every token, code and grant it holds.
CREATE FUNCTION oauth_records_agent_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM oauth_records WHERE account_id = OLD.id;
  RETURN NULL;
END $$;
CREATE TRIGGER oauth_records_agent_deleted AFTER DELETE ON agents FOR EACH ROW EXECUTE FUNCTION oauth_records_agent_deleted();
