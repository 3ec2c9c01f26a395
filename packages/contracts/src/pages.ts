import type { AccountRoute } from './account.ts';

/** An account route the portal can read with a GET. */
type ReadablePath = Extract<AccountRoute, { answers: { GET: unknown } }>['path'];

/**
 * The portal's pages, written once: their paths, and what each reads on arrival. A page with
 * `preloads` is drawn in the signed-in frame, which asks who is signed in (GET /bff/session);
 * `preloads` are the account routes it reads, their `:id` the page's. Built from it: the
 * portal's routes, link builders (config/paths.ts) and loaders, which start those reads on
 * navigation, and the BFF's `Link` header, which starts them with the page's HTML (issue 20).
 * Adding a page is one entry here plus its component in the portal's router (and its module
 * in the BFF's page-preloads.ts if it is in the frame); the type checker asks for both.
 */
export const PORTAL_PAGES = {
  home: { path: '/' },
  signedOut: { path: '/signed-out' },
  clients: { path: '/clients', preloads: ['/clients'] },
  client: { path: '/clients/:id', preloads: ['/clients/:id'] },
  // Not the authorized applications below the list: HTTP/1.1 browsers open six connections to
  // a host, and the first script's files and the tokens already take them all.
  tokens: { path: '/tokens', preloads: ['/tokens'] },
  explorer: { path: '/explorer', preloads: [] },
  // AU-08: the first page of every event; a filtered one (`?type=`) is read by the page's loader.
  securityLog: { path: '/security-log', preloads: ['/security-log'] },
} as const satisfies Record<string, { path: string; preloads?: readonly ReadablePath[] }>;

export type PageName = keyof typeof PORTAL_PAGES;
/** The pages in the signed-in frame: those with `preloads`. */
export type FramePageName = {
  [N in PageName]: (typeof PORTAL_PAGES)[N] extends { preloads: unknown } ? N : never;
}[PageName];
/** The account routes some page reads on arrival. */
export type PreloadedPath = (typeof PORTAL_PAGES)[FramePageName]['preloads'][number];

/** The pages in the signed-in frame, in the table's order. */
export const FRAME_PAGES = Object.entries(PORTAL_PAGES).flatMap(([name, page]) =>
  'preloads' in page
    ? [{ name: name as FramePageName, path: page.path, preloads: page.preloads as readonly PreloadedPath[] }]
    : [],
);

/**
 * What a path parameter must be for the BFF to preload the page's data: an id's characters
 * (ids are base64url), at most 64. Anything else (`a%2Fb`, `<x>`) preloads nothing, and nothing
 * that needs escaping reaches a `Link` header.
 */
const PARAM = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The page a request path is, and its parameters, or undefined: segment by segment, case
 * sensitive, one trailing slash allowed. The table's pages do not overlap, so the first match is
 * the only one.
 */
export function matchPage(path: string): { name: PageName; params: Record<string, string> } | undefined {
  const segments = (path !== '/' && path.endsWith('/') ? path.slice(0, -1) : path).split('/');
  for (const [name, page] of Object.entries(PORTAL_PAGES)) {
    const pattern = page.path.split('/');
    if (pattern.length !== segments.length) continue;
    const params: Record<string, string> = {};
    const matches = pattern.every((part, i) => {
      const segment = segments[i]!;
      if (!part.startsWith(':')) return part === segment;
      params[part.slice(1)] = segment;
      return PARAM.test(segment);
    });
    if (matches) return { name: name as PageName, params };
  }
  return undefined;
}
