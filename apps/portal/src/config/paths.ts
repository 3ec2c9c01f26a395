import { PORTAL_PAGES, type PageName } from '@latchkey/contracts';

/** A page's link builder: its `:id` filled in and encoded. */
type Href<P extends string> = P extends `${string}:id${string}` ? (id: string) => string : () => string;

/**
 * Every route path and link builder of the portal, from the page table of packages/contracts,
 * and the BFF's own endpoints the SPA calls. The account endpoints' URLs come from the route
 * table (`accountRequest` in lib/api-client.ts). Nothing else spells a URL.
 */
export const paths = Object.fromEntries(
  Object.entries(PORTAL_PAGES).map(([name, { path }]) => [
    name,
    { path, href: (id?: string) => (id === undefined ? path : path.replace(':id', encodeURIComponent(id))) },
  ]),
) as { [N in PageName]: { path: (typeof PORTAL_PAGES)[N]['path']; href: Href<(typeof PORTAL_PAGES)[N]['path']> } };

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
