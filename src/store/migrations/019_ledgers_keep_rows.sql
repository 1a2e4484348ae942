-- The XP and credit ledgers were append-only against UPDATE only: a DELETE could still rewrite an agent's
-- history. A row now goes only with its agent (the ON DELETE CASCADE of deleting the agent, which runs once
-- the agent row is gone).
CREATE TRIGGER xp_ledger_keep_rows BEFORE DELETE ON xp_ledger
  WHEN EXISTS (SELECT 1 FROM agents WHERE id = OLD.agent_id)
BEGIN
  SELECT RAISE(ABORT, 'the XP ledger is append-only');
END;

CREATE TRIGGER credit_ledger_keep_rows BEFORE DELETE ON credit_ledger
  WHEN EXISTS (SELECT 1 FROM agents WHERE id = OLD.agent_id)
BEGIN
  SELECT RAISE(ABORT, 'credit_ledger is append-only');
END;
