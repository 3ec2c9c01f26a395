import { parse } from 'cookie';
import { unsign } from 'cookie-signature';

/**
 * The session id a Cookie header names, read exactly as express-session 1.19 reads its own
 * cookie, with the same `cookie` and `cookie-signature` versions it uses: the first cookie of
 * that name, URL-decoded, `s:<id>.<HMAC-SHA256>` under the portal's cookie key. Undefined for
 * no cookie, an unsigned value, an empty id or a signature that does not verify (the
 * signature is compared in constant time by cookie-signature): a tampered cookie is no session
 * (BF-CT-01). The /bff/graphql fast path loads sessions with it; graphql-fast-path.test.ts holds it
 * to express-session's reading.
 */
export function signedSessionId(cookieHeader: string | undefined, name: string, secret: string): string | undefined {
  if (cookieHeader === undefined) return undefined;
  const raw = parse(cookieHeader)[name];
  if (!raw || !raw.startsWith('s:')) return undefined;
  const id = unsign(raw.slice(2), secret);
  return id === false || id === '' ? undefined : id;
}
