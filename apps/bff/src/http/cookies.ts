import type { Request } from 'express';

/**
 * The value of one cookie from the Cookie header, or undefined. Express parses no cookies
 * itself; express-session reads its own, and the login-transaction cookie is read here.
 * A name sent twice is ambiguous and treated as absent.
 */
export function readCookie(req: Request, name: string): string | undefined {
  const header = req.headers.cookie;
  if (header === undefined) return undefined;
  let found: string | undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0 || part.slice(0, eq).trim() !== name) continue;
    if (found !== undefined) return undefined;
    found = part.slice(eq + 1).trim();
  }
  return found;
}
