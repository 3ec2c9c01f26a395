import { useMutation } from '@tanstack/react-query';
import { bff } from '../../../config/paths.ts';
import { ApiError, bffFetch } from '../../../lib/api-client.ts';

/**
 * POST /bff/logout: the BFF revokes the refresh token and destroys the session. A 401 means
 * the session had already ended, which is what the user asked for.
 */
export async function signOut(): Promise<void> {
  const response = await bffFetch(bff.logout, { method: 'POST', on401: 'return' });
  if (response.ok || response.status === 401) return;
  throw new ApiError(response.status, 'sign_out_failed', 'Sign-out failed. Try again in a moment.');
}

export function useSignOut({ onSignedOut }: { onSignedOut: () => void | Promise<void> }) {
  return useMutation({ mutationFn: signOut, onSuccess: onSignedOut });
}
