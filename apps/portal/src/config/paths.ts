/**
 * Every route path and link builder of the portal (STYLE.md §6), and the BFF endpoints the
 * SPA calls. Nothing else spells a URL.
 */
export const paths = {
  home: { path: '/', href: () => '/' },
  clients: { path: '/clients', href: () => '/clients' },
  client: { path: '/clients/:id', href: (id: string) => `/clients/${encodeURIComponent(id)}` },
  tokens: { path: '/tokens', href: () => '/tokens' },
  explorer: { path: '/explorer', href: () => '/explorer' },
  signedOut: { path: '/signed-out', href: () => '/signed-out' },
} as const;

export const bff = {
  session: '/bff/session',
  logout: '/bff/logout',
  /** A navigation, not a fetch: on to the authorization server's end-session endpoint. */
  endSession: '/bff/end-session',
  graphql: '/bff/graphql',
  clients: '/bff/api/clients',
  client: (id: string) => `/bff/api/clients/${encodeURIComponent(id)}`,
  revokeClient: (id: string) => `/bff/api/clients/${encodeURIComponent(id)}/revoke`,
  tokens: '/bff/api/tokens',
  revokeToken: (id: string) => `/bff/api/tokens/${encodeURIComponent(id)}/revoke`,
  applications: '/bff/api/applications',
  revokeApplication: (clientId: string) => `/bff/api/applications/${encodeURIComponent(clientId)}/revoke`,
  /**
   * Sign-in starts at the BFF, which sends the browser back to `returnTo` (a same-origin path).
   * `forceLogin` asks the authorization server for the password even if its own session lives.
   */
  login: (returnTo: string, forceLogin = false) =>
    `/bff/login?returnTo=${encodeURIComponent(returnTo)}${forceLogin ? '&prompt=login' : ''}`,
} as const;
