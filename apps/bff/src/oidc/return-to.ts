import { sameOriginPath } from '@latchkey/http';

/** Where a sign-in ends when no valid return path was given. */
export const DEFAULT_RETURN_TO = '/';

/**
 * The longest return path kept: it travels sealed in the login-transaction cookie (HD-15),
 * which must stay within the 4,096 bytes a browser keeps. A 2,048-character returnTo can
 * resolve longer (percent-encoding), so the resolved path is measured.
 */
export const MAX_RETURN_PATH_LENGTH = 2048;

/**
 * OR-02 (RFC 9700 §4.11): after sign-in the browser may only go to a path of the portal
 * (sameOriginPath's rules) that is not one of the BFF's own endpoints (a return to
 * /bff/login would only start another sign-in), and short enough for the transaction cookie.
 * Anything else gives `/`.
 */
export function safeReturnPath(value: unknown, portalOrigin: string): string {
  const path = sameOriginPath(value, portalOrigin);
  if (path === undefined || path.length > MAX_RETURN_PATH_LENGTH) return DEFAULT_RETURN_TO;
  if (/^\/bff(?:\/|$)/i.test(path.split('?', 1)[0]!)) return DEFAULT_RETURN_TO;
  return path;
}
