/** Where a sign-in ends when no valid return path was given. */
export const DEFAULT_RETURN_TO = '/';

/**
 * OR-02 (RFC 9700 §4.11): after sign-in the browser may only go to a path of the portal.
 * Accepted: an absolute path starting with a single `/`, with no backslash (browsers read
 * `/\evil` as `//evil`) and no control characters, that stays on the portal's origin once
 * resolved and is not one of the BFF's own endpoints (a return to /bff/login would only
 * start another sign-in). Everything else (`https://evil`, `//evil`, `https:evil`,
 * `javascript:`) gives `/`.
 */
export function safeReturnPath(value: unknown, portalOrigin: string): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 2048) return DEFAULT_RETURN_TO;
  if (!value.startsWith('/') || value.startsWith('//')) return DEFAULT_RETURN_TO;
  // eslint-disable-next-line no-control-regex -- rejecting control characters is the point
  if (/[\\\u0000-\u001f\u007f]/.test(value)) return DEFAULT_RETURN_TO;
  let resolved: URL;
  try {
    resolved = new URL(value, portalOrigin);
  } catch {
    return DEFAULT_RETURN_TO;
  }
  if (resolved.origin !== new URL(portalOrigin).origin) return DEFAULT_RETURN_TO;
  const path = `${resolved.pathname}${resolved.search}`;
  // Dot segments can resolve `/.//evil` to `//evil`, which a browser reads as another host.
  if (path.startsWith('//')) return DEFAULT_RETURN_TO;
  if (/^\/bff(?:\/|$)/i.test(resolved.pathname)) return DEFAULT_RETURN_TO;
  return path;
}
