// What an OAuth access token may do: one scope per kind of tool. The registry checks it for every call made
// with a token (credentials that are not tokens are not limited by scopes).
import type { Tool } from '../registry/types.js';

export const OAUTH_SCOPES = ['read', 'write', 'vault', 'pay'] as const;
export type OAuthScope = (typeof OAUTH_SCOPES)[number];

/** Asked for when a client names no scope: reading and acting, but neither the vault nor spending. */
export const DEFAULT_SCOPE = 'read write';

export const SCOPE_TEXT: Record<OAuthScope, string> = {
  read: 'Read your data (tools that change nothing)',
  write: 'Act as you: write memory, post, send mail and use every other tool that changes something',
  vault: 'Use your vault tools',
  pay: 'Spend for paid tools (your credits, x402)',
};

/**
 * The scope a tool needs. The vault and spending are the riskiest, so they win over read/write; a tool
 * that declares itself read-only needs `read`, every other tool `write`.
 */
export function scopeFor(tool: Pick<Tool, 'toolset' | 'auth' | 'price' | 'annotations'>): OAuthScope {
  if (tool.toolset === 'vault') return 'vault';
  if (tool.auth === 'paid' || tool.price) return 'pay';
  return tool.annotations.readOnlyHint ? 'read' : 'write';
}

/** Known scopes of a space-separated list, in the canonical order. */
export const parseScopes = (scope: string | undefined): OAuthScope[] => {
  const asked = new Set((scope ?? '').split(' '));
  return OAUTH_SCOPES.filter((s) => asked.has(s));
};
