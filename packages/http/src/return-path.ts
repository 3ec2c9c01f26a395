/**
 * OR-01, OR-02 (RFC 9700 §4.11): after sign-in the browser may only go to a path on the
 * server that signed it in (the authorization server's pages, the portal's callback).
 * Accepted: an absolute path starting with a single `/`, with no backslash (browsers read
 * `/\evil` as `//evil`), no control characters, that stays on this origin once resolved.
 * Everything else (`https://evil`, `//evil`, `https:evil`, `javascript:`) gives undefined.
 */
export function sameOriginPath(value: unknown, origin: string): string | undefined {
  if (typeof value !== 'string' || value.length === 0 || value.length > 2048) return undefined;
  if (!value.startsWith('/') || value.startsWith('//')) return undefined;
  // eslint-disable-next-line no-control-regex -- rejecting control characters is the point
  if (/[\\\u0000-\u001f\u007f]/.test(value)) return undefined;
  let resolved: URL;
  try {
    resolved = new URL(value, origin);
  } catch {
    return undefined;
  }
  if (resolved.origin !== new URL(origin).origin) return undefined;
  const path = `${resolved.pathname}${resolved.search}`;
  // Dot segments can resolve `/.//evil` to `//evil`, which a browser reads as another host.
  return path.startsWith('//') ? undefined : path;
}
