/** Carries the pending request (or a safe return path) between the sign-in and sign-up pages. */
export interface InteractionContext {
  requestId?: string | undefined;
  returnTo?: string | undefined;
}

export function interactionPath(path: '/signin' | '/signup', context: InteractionContext): string {
  const query = new URLSearchParams();
  if (context.requestId !== undefined) query.set('request', context.requestId);
  else if (context.returnTo !== undefined && context.returnTo !== '/') query.set('return_to', context.returnTo);
  const search = query.toString();
  return search ? `${path}?${search}` : path;
}

export function continuePath(requestId: string): string {
  return `/oauth/authorize/continue?${new URLSearchParams({ request: requestId }).toString()}`;
}
