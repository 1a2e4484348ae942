-- Signals a change to a shared 2025-era MCP session (docs/decisions/mcp-sessions-shared.md): a login, the toolsets
-- tools_find widened, the subscriptions, or its end. Instances holding copies of sessions listen, and mark every
-- copy to re-read its row on its next request, so a change made through one instance is seen on the next request
-- anywhere instead of up to a second later. Per row and only when one of those columns changed: seen_at refreshes,
-- and an UPDATE that matches no row (a DELETE of an unknown session id), send nothing.
CREATE TRIGGER mcp_sessions_signal AFTER UPDATE OF toolsets, login_sealed, subscriptions, closed_at ON mcp_sessions
  FOR EACH ROW
  WHEN (OLD.toolsets IS DISTINCT FROM NEW.toolsets OR OLD.login_sealed IS DISTINCT FROM NEW.login_sealed
    OR OLD.subscriptions IS DISTINCT FROM NEW.subscriptions OR OLD.closed_at IS DISTINCT FROM NEW.closed_at)
  EXECUTE FUNCTION notify_if_listened('gw_mcp_sessions');
