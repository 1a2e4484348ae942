// The OAuth protected resource: the MCP endpoint that requires sign-in, its metadata (RFC 9728) and the
// challenge a request without a usable token gets. Pure functions of the public base URL, shared by the
// HTTP front (metadata documents) and the MCP adapter (the 401 on /mcp/agent).
import { DEFAULT_SCOPE, OAUTH_SCOPES } from './oauth-scopes.js';

/** Path of the MCP endpoint that requires an OAuth access token. */
export const PROTECTED_MCP_PATH = '/mcp/agent';
export const RESOURCE_METADATA_PATH = '/.well-known/oauth-protected-resource';

const origin = (baseUrl: string): string => baseUrl.replace(/\/+$/, '');

/** The resource identifier (RFC 8707) tokens are bound to: the absolute URL of /mcp/agent. */
export const resourceUrl = (baseUrl: string): string => origin(baseUrl) + PROTECTED_MCP_PATH;

/** The issuer of the gateway's own authorization server. */
export const issuerUrl = (baseUrl: string): string => origin(baseUrl);

/** The path-suffixed metadata URL (RFC 9728 §3.1), the one the challenge names. */
export const resourceMetadataUrl = (baseUrl: string): string => origin(baseUrl) + RESOURCE_METADATA_PATH + PROTECTED_MCP_PATH;

export function protectedResourceMetadata(baseUrl: string): Record<string, unknown> {
  return {
    resource: resourceUrl(baseUrl),
    authorization_servers: [issuerUrl(baseUrl)],
    scopes_supported: [...OAUTH_SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: 'Agent Gateway (signed-in MCP)',
    resource_documentation: `${origin(baseUrl)}/connect`,
  };
}

export type ChallengeError = 'invalid_token' | 'insufficient_scope';

/**
 * The `WWW-Authenticate` value of a 401 or 403 on the protected resource (RFC 6750 §3, RFC 9728 §5.1). An
 * `invalid_token` challenge names the default scope unless given another: an MCP client signs in again for the
 * challenge's scope, and for every scope the metadata lists (the vault and spending too) when it names none.
 */
export function bearerChallenge(baseUrl: string, o: { error?: ChallengeError; description?: string; scope?: string } = {}): string {
  const parts = [`resource_metadata="${resourceMetadataUrl(baseUrl)}"`];
  const scope = o.scope ?? (o.error === 'invalid_token' ? DEFAULT_SCOPE : undefined);
  if (scope) parts.push(`scope="${scope}"`);
  if (o.error) parts.push(`error="${o.error}"`);
  if (o.description) parts.push(`error_description="${o.description.replace(/["\\]/g, '')}"`);
  return `Bearer ${parts.join(', ')}`;
}
