import type { Response } from 'express';
import type { AuthorizationErrorCode } from './authorize.errors.ts';

/** Where a verified authorization request's answer goes: the registered URI and the state to echo. */
export interface AuthorizationRedirect {
  redirectUri: string;
  state?: string | undefined;
}

/**
 * Appends response parameters to the registered redirect URI without re-serialising it, so
 * its own query survives byte for byte (RU-06, OAuth 2.1 §4.1.2 "MUST be retained").
 * Values are percent-encoded (never `+` for space) so `state` decodes to exactly what was
 * sent (ST-02) and CR/LF can never reach the Location header.
 */
export function authorizationResponseUrl(redirectUri: string, params: Record<string, string | undefined>): string {
  const query = Object.entries(params)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
    .join('&');
  if (query === '') return redirectUri; // nothing to add (end-session without state)
  const separator = !redirectUri.includes('?') ? '?' : /[?&]$/.test(redirectUri) ? '' : '&';
  return `${redirectUri}${separator}${query}`;
}

/**
 * 303, never 307: a 307 would make the browser re-post the consent form, credentials and
 * all, to the client (RFC 9700 §4.12, CJ-03). `iss` per RFC 9207.
 */
function redirect(res: Response, url: string): void {
  res.status(303).location(url).end();
}

export function redirectWithCode(res: Response, issuer: string, target: AuthorizationRedirect, code: string): void {
  redirect(res, authorizationResponseUrl(target.redirectUri, { code, state: target.state, iss: issuer }));
}

export function redirectWithError(
  res: Response,
  issuer: string,
  target: AuthorizationRedirect,
  error: AuthorizationErrorCode,
  description: string,
): void {
  redirect(
    res,
    authorizationResponseUrl(target.redirectUri, {
      error,
      error_description: description,
      state: target.state,
      iss: issuer,
    }),
  );
}
