// The authorization server's endpoint paths: the router lists them at start-up, the provider (loaded with the
// first OAuth request, provider.ts) serves them.
export const OAUTH_ROUTES = {
  authorization: '/oauth/authorize',
  token: '/oauth/token',
  registration: '/oauth/register',
  revocation: '/oauth/revoke',
  jwks: '/oauth/jwks',
  pushed_authorization_request: '/oauth/par',
  end_session: '/oauth/session/end',
  introspection: '/oauth/introspect',
  userinfo: '/oauth/userinfo',
} as const;
