import type { FetchQueryOptions, QueryClient } from '@tanstack/react-query';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { paths } from '../config/paths.ts';
import { clientQueryOptions } from '../features/clients/api/get-client.ts';
import { clientsQueryOptions } from '../features/clients/api/get-clients.ts';
import { sessionQueryOptions } from '../features/session/api/get-session.ts';
import { tokensQueryOptions } from '../features/tokens/api/get-tokens.ts';
import { AppLayout } from './routes/app-layout.tsx';
import { ClientRoute } from './routes/client.tsx';
import { ClientsRoute } from './routes/clients.tsx';
import { TokensRoute } from './routes/tokens.tsx';
import { homeLoader, Home } from './routes/home.tsx';
import { NotFound } from './routes/not-found.tsx';
import { RouteErrorBoundary } from './routes/route-error.tsx';
import { StartingUp } from './routes/starting-up.tsx';

/**
 * Starts a route's data on navigation, in parallel with its lazy module, through the same
 * query options the page reads, so the page finds it in the cache. It never blocks: the page
 * shows its own loading and error states.
 */
function prefetch(queryClient: QueryClient, ...queries: FetchQueryOptions<any, any, any, any>[]) {
  return function prefetchLoader(): null {
    for (const query of queries) void queryClient.prefetchQuery(query);
    return null;
  };
}

/**
 * The portal's routes. The small pages are in the first script, so on a slow network a page
 * costs no round trip after it; the Explorer (GraphiQL, Monaco) loads lazily, its own large chunk.
 */
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
            {
              path: paths.clients.path,
              ErrorBoundary: RouteErrorBoundary,
              loader: prefetch(queryClient, clientsQueryOptions()),
              Component: ClientsRoute,
            },
            {
              path: paths.client.path,
              ErrorBoundary: RouteErrorBoundary,
              loader: ({ params }) => prefetch(queryClient, clientQueryOptions(params.id ?? ''))(),
              Component: ClientRoute,
            },
            {
              path: paths.tokens.path,
              ErrorBoundary: RouteErrorBoundary,
              loader: prefetch(queryClient, tokensQueryOptions()),
              Component: TokensRoute,
            },
            {
              path: paths.explorer.path,
              ErrorBoundary: RouteErrorBoundary,
              lazy: { Component: async () => (await import('./routes/graphiql.tsx')).GraphiqlRoute },
            },
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
