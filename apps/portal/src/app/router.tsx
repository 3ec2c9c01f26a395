import type { FetchInfiniteQueryOptions, FetchQueryOptions, QueryClient } from '@tanstack/react-query';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { FRAME_PAGES, type FramePageName, type PreloadedPath } from '@latchkey/contracts';
import { paths } from '../config/paths.ts';
import { clientQueryOptions } from '../features/clients/api/get-client.ts';
import { clientsQueryOptions } from '../features/clients/api/get-clients.ts';
import { securityLogQueryOptions } from '../features/security-log/api/get-security-log.ts';
import { eventTypeOf } from '../features/security-log/event-type-param.ts';
import { sessionQueryOptions } from '../features/session/api/get-session.ts';
import { tokensQueryOptions } from '../features/tokens/api/get-tokens.ts';
import { AppLayout } from './routes/app-layout.tsx';
import { TokensRoute } from './routes/tokens.tsx';
import { homeLoader, Home } from './routes/home.tsx';
import { NotFound } from './routes/not-found.tsx';
import { RouteErrorBoundary } from './routes/route-error.tsx';
import { StartingUp } from './routes/starting-up.tsx';

type PlainQuery = FetchQueryOptions<any, any, any, any>;
type PagedQuery = FetchInfiniteQueryOptions<any, any, any, any, any>;
type AnyQuery = PlainQuery | PagedQuery;

/**
 * Starts a route's data on navigation, in parallel with its lazy module, through the same
 * query options the page reads, so the page finds it in the cache. It never blocks: the page
 * shows its own loading and error states. A list read a page at a time (the security log) is
 * prefetched as such: its first page.
 */
function prefetch(queryClient: QueryClient, ...queries: AnyQuery[]) {
  return function prefetchLoader(): null {
    for (const query of queries) {
      void ('initialPageParam' in query
        ? queryClient.prefetchInfiniteQuery(query as PagedQuery)
        : queryClient.prefetchQuery(query as PlainQuery));
    }
    return null;
  };
}

/**
 * The query each account route a page reads on arrival goes through (`preloads` in the page
 * table), for the page's `:id` and its URL's search (the security log's filter).
 */
const PRELOAD_QUERIES: Record<PreloadedPath, (id: string, search: URLSearchParams) => AnyQuery> = {
  '/clients': () => clientsQueryOptions(),
  '/clients/:id': (id) => clientQueryOptions(id),
  '/tokens': () => tokensQueryOptions(),
  '/security-log': (_id, search) => securityLogQueryOptions(eventTypeOf(search)),
};

/**
 * What the page table (packages/contracts) does not say of a page in the signed-in frame: what
 * draws it. API tokens is in the first script, so on a slow network it costs no round trip
 * after it. The API clients pages (with issue 29's public clients and secrets) are a chunk each,
 * which kept the first script within the bench's budget (bench/portal.ts): the BFF preloads a
 * page's chunk with its HTML (PF-05), so only an in-app navigation waits for it, alongside the
 * page's data. The Explorer (GraphiQL, Monaco) loads lazily, its own large chunk. Each is made
 * anew for each router: React Router marks a `lazy` object's keys as loaded, so a second router
 * (the next test's) given the same object would never draw the page.
 */
const FRAME_ROUTES: Record<FramePageName, () => Pick<RouteObject, 'Component' | 'lazy'>> = {
  clients: () => ({ lazy: { Component: async () => (await import('./routes/clients.tsx')).ClientsRoute } }),
  client: () => ({ lazy: { Component: async () => (await import('./routes/client.tsx')).ClientRoute } }),
  tokens: () => ({ Component: TokensRoute }),
  explorer: () => ({ lazy: { Component: async () => (await import('./routes/graphiql.tsx')).GraphiqlRoute } }),
  securityLog: () => ({
    lazy: { Component: async () => (await import('./routes/security-log.tsx')).SecurityLogRoute },
  }),
};

/** The portal's routes: the page table's, each page's loader prefetching what it preloads. */
export function createAppRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      path: paths.home.path,
      ErrorBoundary: RouteErrorBoundary,
      HydrateFallback: StartingUp,
      children: [
        { index: true, loader: homeLoader, Component: Home },
        {
          path: paths.signedOut.path,
          lazy: { Component: async () => (await import('./routes/signed-out.tsx')).SignedOutRoute },
        },
        {
          Component: AppLayout,
          loader: prefetch(queryClient, sessionQueryOptions()),
          children: [
            ...FRAME_PAGES.map(({ name, path, preloads }): RouteObject => ({
              path,
              ErrorBoundary: RouteErrorBoundary,
              ...(preloads.length > 0 && {
                loader: ({ params, request }) => {
                  const search = new URL(request.url).searchParams;
                  return prefetch(
                    queryClient,
                    ...preloads.map((route) => PRELOAD_QUERIES[route](params.id ?? '', search)),
                  )();
                },
              }),
              ...FRAME_ROUTES[name](),
            })),
            { path: '*', Component: NotFound },
          ],
        },
      ],
    },
  ];
}

export function createAppRouter(queryClient: QueryClient) {
  return createBrowserRouter(createAppRoutes(queryClient));
}
