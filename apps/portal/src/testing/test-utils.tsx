import { render, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { RouterProvider } from 'react-router/dom';
import { expect } from 'vitest';
import { AppProvider } from '../app/provider.tsx';
import { createAppRouter } from '../app/router.tsx';
import { createQueryClient } from '../lib/query-client.ts';

/**
 * Renders the whole portal (real routes, real query options) at `path`, with a fresh
 * QueryClient that does not retry, against the MSW handlers.
 */
export function renderApp(path: string) {
  window.history.replaceState(null, '', path);
  const queryClient = createQueryClient({ retry: false });
  const router = createAppRouter(queryClient);
  const user = userEvent.setup();
  const view = render(
    <AppProvider queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { ...view, user, queryClient, router };
}

/** Everything the query client holds, serialized: a secret must never be in here. */
export function cacheContents(queryClient: ReturnType<typeof createQueryClient>): string {
  const queries = queryClient.getQueryCache().getAll().map((q) => q.state.data);
  const mutations = queryClient.getMutationCache().getAll().map((m) => [m.state.data, m.state.variables]);
  return JSON.stringify({ queries, mutations });
}

export async function expectSignInRedirect(returnTo: string): Promise<void> {
  await waitFor(() => expect(window.location.assign).toHaveBeenCalledWith(`/bff/login?returnTo=${encodeURIComponent(returnTo)}`));
}

export { screen };
