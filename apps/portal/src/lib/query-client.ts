import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError, errorMessage, SessionEndedError } from './api-client.ts';
import { showToast } from './toasts.ts';

declare module '@tanstack/react-query' {
  interface Register {
    /** `inlineErrors`: the component shows this mutation's failure itself (a form, a dialog). */
    mutationMeta: { inlineErrors?: boolean };
  }
}

/** Client errors other than a timeout will not change on a retry. */
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 408) return false;
  return failureCount < 2;
}

/**
 * The portal's server-state cache. A page shows a failed first load itself (error state with
 * Retry); a failed background refresh of data already on screen, and any mutation failure that
 * no form shows, becomes a toast. A 401 has already sent the user to sign in: no toast.
 */
export function createQueryClient(options: { retry?: boolean } = {}): QueryClient {
  const retry = options.retry === false ? false : shouldRetry;
  return new QueryClient({
    queryCache: new QueryCache({
      onError(error, query) {
        if (error instanceof SessionEndedError || query.state.data === undefined) return;
        showToast({ tone: 'error', message: `Could not refresh: ${errorMessage(error)}` });
      },
    }),
    mutationCache: new MutationCache({
      onError(error, _variables, _context, mutation) {
        if (error instanceof SessionEndedError || mutation.meta?.inlineErrors) return;
        showToast({ tone: 'error', message: errorMessage(error) });
      },
    }),
    defaultOptions: {
      queries: { staleTime: 30_000, retry },
      mutations: { retry: false },
    },
  });
}
