-- PostgreSQL port of migrations/004_x402_ledger.sql. x402 payments settled by the gateway itself. A row is
-- claimed (status 'verified') before the tool runs; the UNIQUE key makes an authorization usable once, also when
-- it arrives on several requests at the same moment.
-- Status: verified → settling → settled | failed; verified → released (the tool failed, nothing settled);
-- rows a crash left in verified/settling are re-checked on chain at start-up → recovered | abandoned | failed.
CREATE TABLE x402_payments (
  id TEXT PRIMARY KEY,
  network TEXT NOT NULL,
  -- Lowercased addresses and nonce, so the UNIQUE key cannot be dodged by changing letter case.
  asset TEXT NOT NULL,
  payer TEXT NOT NULL,
  nonce TEXT NOT NULL,
  pay_to TEXT NOT NULL,
  -- Atomic units of the asset, as a decimal string.
  amount TEXT NOT NULL,
  tool TEXT NOT NULL,
  transport TEXT NOT NULL,
  x402_version BIGINT NOT NULL,
  -- Unix seconds: the authorization cannot be settled after this.
  valid_before BIGINT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('verified', 'settling', 'settled', 'failed', 'released', 'recovered', 'abandoned')),
  tx_hash TEXT,
  error TEXT,
  verify_ms DOUBLE PRECISION,
  settle_ms DOUBLE PRECISION,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  UNIQUE (network, asset, payer, nonce)
);
CREATE INDEX x402_payments_open ON x402_payments (status) WHERE status IN ('verified', 'settling');
CREATE INDEX x402_payments_payer ON x402_payments (payer, created_at);
