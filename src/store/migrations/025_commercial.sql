-- The commercial group at {api_url} (issue 23): accounts with a revenue key, their prepaid balance and its
-- append-only ledger, and orders charged on delivery.

-- An account: one per email (normalised to lower case). Only the SHA-256 of its revenue key is kept.
CREATE TABLE revenue_accounts (
  id TEXT PRIMARY KEY,
  email TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  key_hash TEXT NOT NULL UNIQUE,
  key_hint TEXT NOT NULL,
  client_hash TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX revenue_accounts_client ON revenue_accounts (client_hash, created_at);

-- The prepaid balance in micro-dollars; a hold takes from it at once, so it can never be spent twice.
CREATE TABLE account_balances (
  account_id TEXT PRIMARY KEY REFERENCES revenue_accounts(id),
  balance INTEGER NOT NULL DEFAULT 0 CHECK (balance >= 0),
  updated_at INTEGER NOT NULL
) WITHOUT ROWID;

-- Every movement: a credit (operator), a hold (order placed), a release (order failed or canceled, or the part
-- of a hold not captured) and a capture (order delivered: the charge itself, which moves no balance since the
-- hold already did). `delta` is the balance change; `amount` the sum the row is about.
CREATE TABLE account_ledger (
  id INTEGER PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES revenue_accounts(id),
  kind TEXT NOT NULL CHECK (kind IN ('credit', 'hold', 'release', 'capture')),
  amount INTEGER NOT NULL CHECK (amount >= 0),
  delta INTEGER NOT NULL,
  balance_after INTEGER NOT NULL CHECK (balance_after >= 0),
  reason TEXT NOT NULL,
  reference TEXT,
  created_at INTEGER NOT NULL
);
CREATE INDEX account_ledger_account ON account_ledger (account_id, id);
CREATE INDEX account_ledger_reference ON account_ledger (reference);
CREATE TRIGGER account_ledger_append_only BEFORE UPDATE ON account_ledger
BEGIN
  SELECT RAISE(ABORT, 'account_ledger is append-only');
END;
CREATE TRIGGER account_ledger_keep_rows BEFORE DELETE ON account_ledger
BEGIN
  SELECT RAISE(ABORT, 'account_ledger is append-only');
END;

-- An order: its service, price and hold, where it stands, and its result. The hold's payment state moves
-- held → captured or held → released exactly once (guarded updates), whatever process does the work.
CREATE TABLE orders (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES revenue_accounts(id),
  service TEXT NOT NULL,
  price_id TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('placed', 'working', 'delivered', 'revision_requested', 'accepted', 'failed', 'canceled')),
  price INTEGER NOT NULL,
  charged INTEGER,
  rail TEXT NOT NULL CHECK (rail IN ('credits', 'x402', 'card')),
  hold_ref TEXT NOT NULL,
  hold_amount INTEGER NOT NULL,
  hold_data TEXT,
  payment_state TEXT NOT NULL CHECK (payment_state IN ('held', 'captured', 'released')),
  input TEXT NOT NULL,
  result TEXT,
  usage TEXT,
  error TEXT,
  -- Set when the deliverable is made and stored, before the charge is captured: a run after a crash captures
  -- and delivers it instead of making it again; cleared when a revision is asked for.
  produced_at INTEGER,
  -- The handoff a person works the order through (a dev task on a gateway without a model).
  handoff_id TEXT,
  revisions INTEGER NOT NULL DEFAULT 0,
  revision_notes TEXT,
  webhook_url TEXT,
  webhook_secret TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  delivered_at INTEGER,
  closed_at INTEGER,
  accept_by INTEGER
);
CREATE INDEX orders_account ON orders (account_id, created_at DESC, id);
CREATE INDEX orders_open ON orders (payment_state) WHERE payment_state = 'held';

-- What GET /usage reads, kept by triggers in the transaction of every order change, so the read is two lookups
-- whatever the number of orders: per account, open orders, what is held, what was captured (all time); per
-- account, UTC month and service, orders placed, delivered and the sum captured that month.
CREATE TABLE account_stats (
  account_id TEXT PRIMARY KEY REFERENCES revenue_accounts(id),
  open_orders INTEGER NOT NULL DEFAULT 0,
  held INTEGER NOT NULL DEFAULT 0,
  captured INTEGER NOT NULL DEFAULT 0,
  charges INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;

CREATE TABLE account_month_usage (
  account_id TEXT NOT NULL REFERENCES revenue_accounts(id),
  month TEXT NOT NULL,
  service TEXT NOT NULL,
  orders INTEGER NOT NULL DEFAULT 0,
  delivered INTEGER NOT NULL DEFAULT 0,
  spent INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (account_id, month, service)
) WITHOUT ROWID;

CREATE TRIGGER orders_stats_insert AFTER INSERT ON orders
BEGIN
  INSERT INTO account_stats (account_id, open_orders, held) VALUES (NEW.account_id, 1, CASE WHEN NEW.payment_state = 'held' THEN NEW.hold_amount ELSE 0 END)
    ON CONFLICT (account_id) DO UPDATE SET open_orders = open_orders + 1, held = held + excluded.held;
  INSERT INTO account_month_usage (account_id, month, service, orders) VALUES (NEW.account_id, strftime('%Y-%m', NEW.created_at / 1000, 'unixepoch'), NEW.service, 1)
    ON CONFLICT (account_id, month, service) DO UPDATE SET orders = orders + 1;
END;

-- An order is open until it is accepted, failed, canceled, or delivered and captured.
CREATE TRIGGER orders_stats_update AFTER UPDATE OF status, payment_state ON orders
WHEN OLD.status IS NOT NEW.status OR OLD.payment_state IS NOT NEW.payment_state
BEGIN
  UPDATE account_stats SET
    open_orders = open_orders
      + (CASE WHEN NEW.status NOT IN ('accepted', 'failed', 'canceled') AND NOT (NEW.status = 'delivered' AND NEW.payment_state = 'captured') THEN 1 ELSE 0 END)
      - (CASE WHEN OLD.status NOT IN ('accepted', 'failed', 'canceled') AND NOT (OLD.status = 'delivered' AND OLD.payment_state = 'captured') THEN 1 ELSE 0 END),
    held = held + (CASE WHEN NEW.payment_state = 'held' THEN NEW.hold_amount ELSE 0 END) - (CASE WHEN OLD.payment_state = 'held' THEN OLD.hold_amount ELSE 0 END),
    captured = captured + (CASE WHEN NEW.payment_state = 'captured' AND OLD.payment_state <> 'captured' THEN NEW.charged ELSE 0 END),
    charges = charges + (CASE WHEN NEW.payment_state = 'captured' AND OLD.payment_state <> 'captured' THEN 1 ELSE 0 END)
  WHERE account_id = NEW.account_id;
  INSERT INTO account_month_usage (account_id, month, service, delivered, spent)
    SELECT NEW.account_id, strftime('%Y-%m', NEW.updated_at / 1000, 'unixepoch'), NEW.service,
      CASE WHEN OLD.delivered_at IS NULL AND NEW.delivered_at IS NOT NULL THEN 1 ELSE 0 END,
      CASE WHEN NEW.payment_state = 'captured' AND OLD.payment_state <> 'captured' THEN NEW.charged ELSE 0 END
    WHERE (OLD.delivered_at IS NULL AND NEW.delivered_at IS NOT NULL) OR (NEW.payment_state = 'captured' AND OLD.payment_state <> 'captured')
    ON CONFLICT (account_id, month, service) DO UPDATE SET delivered = delivered + excluded.delivered, spent = spent + excluded.spent;
END;
