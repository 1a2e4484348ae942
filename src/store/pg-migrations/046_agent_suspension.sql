-- An operator may suspend an agent (docs/decisions/operator-console.md): while suspended_at is set, every call with
-- its credentials (secret, OAuth token, vault login, its API keys) is refused with 403 agent_suspended.
ALTER TABLE agents ADD COLUMN suspended_at BIGINT;
