import { sameOriginPath } from '@latchkey/runtime';

/** Where a sign-in ends when no valid return path was given. */
export const DEFAULT_RETURN_TO = '/';

/**
 * OR-02 (RFC 9700 §4.11): after sign-in the browser may only go to a path of the portal
 * (sameOriginPath's rules) that is not one of the BFF's own endpoints (a return to
 * /bff/login would only start another sign-in). Anything else gives `/`.
 */
export function safeReturnPath(value: unknown, portalOrigin: string): string {
  const path = sameOriginPath(value, portalOrigin);
  if (path === undefined || /^\/bff(?:\/|$)/i.test(path.split('?', 1)[0]!)) return DEFAULT_RETURN_TO;
  return path;
}
