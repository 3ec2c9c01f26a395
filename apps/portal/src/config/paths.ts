/**
 * Every route path and link builder of the portal, and the BFF's own endpoints
 * the SPA calls. The account endpoints' URLs come from the route table of packages/contracts
 * (`accountRequest` in lib/api-client.ts). Nothing else spells a URL.
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
  /**
   * Sign-in starts at the BFF, which sends the browser back to `returnTo` (a same-origin path).
   * `forceLogin` asks the authorization server for the password even if its own session lives.
   */
  login: (returnTo: string, forceLogin = false) =>
    `/bff/login?returnTo=${encodeURIComponent(returnTo)}${forceLogin ? '&prompt=login' : ''}`,
} as const;
