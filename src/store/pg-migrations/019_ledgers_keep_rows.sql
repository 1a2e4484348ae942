-- PostgreSQL port of migrations/019_ledgers_keep_rows.sql. The XP and credit ledgers were append-only against
-- UPDATE only: a DELETE could still rewrite an agent's history. A row now goes only with its agent (the ON
-- DELETE CASCADE of deleting the agent, which PostgreSQL runs after the agent row is gone, as SQLite does).
-- The messages are the ones of the UPDATE triggers.
CREATE FUNCTION xp_ledger_keep_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM agents WHERE id = OLD.agent_id) THEN
    RAISE EXCEPTION 'the XP ledger is append-only';
  END IF;
  RETURN OLD;
END $$;
CREATE TRIGGER xp_ledger_keep_rows BEFORE DELETE ON xp_ledger FOR EACH ROW EXECUTE FUNCTION xp_ledger_keep_rows();

CREATE FUNCTION credit_ledger_keep_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM agents WHERE id = OLD.agent_id) THEN
    RAISE EXCEPTION 'credit_ledger is append-only';
  END IF;
  RETURN OLD;
END $$;
CREATE TRIGGER credit_ledger_keep_rows BEFORE DELETE ON credit_ledger FOR EACH ROW EXECUTE FUNCTION credit_ledger_keep_rows();
