-- Agent credits and store entitlements. The unit is the credit: 1 credit = US$0.000001 (integer
-- micro-dollars), so a $0.001 tool costs 1000 credits. Every row that belongs to an agent references
-- agents(id) ON DELETE CASCADE.

-- The balance an agent can spend; the conditional UPDATE ... WHERE balance >= price is the only debit.
CREATE TABLE credit_balances (
  agent_id TEXT PRIMARY KEY REFERENCES agents(id) ON DELETE CASCADE,
  balance INTEGER NOT NULL DEFAULT 0 CHECK (balance >= 0),
  updated_at INTEGER NOT NULL
);

-- Append-only ledger: every grant, spend and refund with its reason and reference, and the balance after it.
CREATE TABLE credit_ledger (
  id INTEGER PRIMARY KEY,
  agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('grant', 'spend', 'refund')),
  -- Signed: grants and refunds add (> 0), spends subtract (< 0).
  amount INTEGER NOT NULL,
  balance_after INTEGER NOT NULL CHECK (balance_after >= 0),
  reason TEXT NOT NULL,
  reference TEXT,
  created_at INTEGER NOT NULL
);
CREATE INDEX credit_ledger_agent ON credit_ledger(agent_id, id);
CREATE INDEX credit_ledger_reference ON credit_ledger(reference);
CREATE TRIGGER credit_ledger_append_only BEFORE UPDATE ON credit_ledger
BEGIN
  SELECT RAISE(ABORT, 'credit_ledger is append-only');
END;

-- What a verified store transaction granted to an agent: a tier (with the API key issued for it) or credits.
CREATE TABLE entitlement_grants (
  id TEXT PRIMARY KEY,
  agent_id TEXT NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  store TEXT NOT NULL,
  original_transaction_id TEXT NOT NULL,
  -- The latest transaction seen for this purchase (subscription renewals share the original id).
  transaction_id TEXT NOT NULL,
  product_id TEXT NOT NULL,
  environment TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('tier', 'credits')),
  tier TEXT CHECK (tier IN ('pro', 'enterprise')),
  credits INTEGER CHECK (credits > 0),
  key_id TEXT REFERENCES api_keys(id) ON DELETE SET NULL,
  key_hint TEXT,
  expires_at INTEGER,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  UNIQUE (store, original_transaction_id)
);
CREATE INDEX entitlement_grants_agent ON entitlement_grants(agent_id, created_at);

-- A purchase is redeemed once, ever: this marker holds no agent data and outlives a deleted agent, so the
-- same store transaction cannot be redeemed again by a fresh handle.
CREATE TABLE entitlement_redemptions (
  store TEXT NOT NULL,
  original_transaction_id TEXT NOT NULL,
  redeemed_at INTEGER NOT NULL,
  PRIMARY KEY (store, original_transaction_id)
);
