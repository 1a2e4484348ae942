-- Signals a change to a shared 2025-era MCP session (docs/decisions/mcp-sessions-shared.md): a login, the toolsets
-- tools_find widened, the subscriptions, or its end. Instances holding copies of sessions listen, and mark every
-- copy to re-read its row on its next request, so a change made through one instance is seen on the next request
-- anywhere instead of up to a second later. seen_at refreshes (UPDATE OF seen_at only) send nothing.
CREATE TRIGGER mcp_sessions_signal AFTER UPDATE OF toolsets, login_sealed, subscriptions, closed_at ON mcp_sessions
  FOR EACH STATEMENT EXECUTE FUNCTION notify_if_listened('gw_mcp_sessions');
