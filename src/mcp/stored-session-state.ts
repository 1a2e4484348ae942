// What a session served from the shared store keeps in step with its row: its login, subscriptions and toolsets,
// read from the row and written back to it (docs/decisions/mcp-sessions-shared.md).
import type { McpSessionStore, StoredSession } from '../store/mcp-sessions.js';
import type { SessionState } from './server.js';

export const storedSessionState = (store: McpSessionStore, id: string, stored: StoredSession): SessionState => ({
  login: stored.login,
  subscriptions: stored.subscriptions,
  saveLogin: (login) => store.setLogin(id, login),
  saveSubscriptions: (uris) => store.setSubscriptions(id, uris),
  saveToolsets: (toolsets) => store.setToolsets(id, toolsets),
});
