import type { RequestHandler, Response } from 'express';
import helmet from 'helmet';

/**
 * The pages load nothing from other origins and run no script (RF-01, RFC 9700 §4.2.4).
 * `form-action 'self'` is widened per response with `allowFormActionTo` when a form's
 * submission may end in a redirect to a client (CJ-04).
 */
const DIRECTIVES = {
  'default-src': ["'none'"],
  'base-uri': ["'none'"],
  'connect-src': ["'none'"],
  'font-src': ["'none'"],
  'form-action': ["'self'"],
  // RFC 9700 §4.16: the authorization, login, consent and error pages must not be framed.
  'frame-ancestors': ["'none'"],
  'img-src': ["'self'"],
  'object-src': ["'none'"],
  'script-src': ["'none'"],
  'style-src': ["'self'"],
} as const;

function serializeCsp(formAction: readonly string[]): string {
  return Object.entries({ ...DIRECTIVES, 'form-action': formAction })
    .map(([name, values]) => `${name} ${values.join(' ')}`)
    .join('; ');
}

/**
 * Headers for every response of the authorization server: no framing (CJ-01), no referrer
 * (RF-01), no caching of anything that may carry a code or a CSRF token (CJ-02, P-04), and
 * no CORS headers on the pages (CJ-06: browsers then refuse cross-origin reads); the endpoints
 * browser apps call add theirs in app.ts (PC-07).
 */
export function securityHeaders(options: { https: boolean }): RequestHandler[] {
  return [
    helmet({
      contentSecurityPolicy: { useDefaults: false, directives: { ...DIRECTIVES } },
      xFrameOptions: { action: 'deny' },
      referrerPolicy: { policy: 'no-referrer' },
      strictTransportSecurity: options.https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
      crossOriginResourcePolicy: { policy: 'same-origin' },
      crossOriginOpenerPolicy: { policy: 'same-origin' },
    }),
    (_req, res, next) => {
      res.setHeader('Cache-Control', 'no-store');
      res.setHeader('Pragma', 'no-cache');
      next();
    },
  ];
}

/** Only a plain scheme://host[:port] may enter the policy; anything else could add directives. */
const CSP_SAFE_ORIGIN = /^https?:\/\/(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/;
/** A CSP scheme-source (CSP3 §2.3.1): a reverse-domain private-use scheme, lower-cased by the URL parser. */
const CSP_SAFE_SCHEME = /^[a-z][a-z0-9+-]*(?:\.[a-z0-9+-]+)+:$/;

/**
 * CJ-04: Chromium enforces `form-action` along the redirect chain that follows a form
 * submission, so a consent or sign-in form whose answer is a 303 to the client's registered
 * redirect URI needs that origin in the policy, or the browser stops after the code is minted.
 * `redirectUri` must already be validated against the client's registration.
 */
export function allowFormActionTo(res: Response, redirectUri: string): void {
  let source: string;
  try {
    const url = new URL(redirectUri);
    // PC-05: a native app's private-use scheme (com.example.app:/callback) has no origin; CSP
    // names it as a scheme-source, `com.example.app:`.
    source = url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : url.protocol;
  } catch {
    return;
  }
  if (!CSP_SAFE_ORIGIN.test(source) && !CSP_SAFE_SCHEME.test(source)) return;
  res.setHeader('Content-Security-Policy', serializeCsp(["'self'", source]));
}
