import helmet from 'helmet';
import type { Middleware } from '@latchkey/http';

/**
 * The SPA loads everything from its own origin. GraphiQL's Monaco editor runs its language
 * services in workers (`worker-src blob:` covers how Monaco may start them) and sets inline
 * styles on the editor's elements, hence `style-src 'unsafe-inline'`; scripts stay 'self'
 * only. Fonts and icons may be inlined by Vite as data: URIs. No third-party origin anywhere
 * (RFC 9700 §4.2.4), and no framing (RFC 9700 §4.16).
 */
export const CONTENT_SECURITY_POLICY = {
  'default-src': ["'self'"],
  'base-uri': ["'none'"],
  'connect-src': ["'self'"],
  'font-src': ["'self'", 'data:'],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
  'img-src': ["'self'", 'data:'],
  'manifest-src': ["'self'"],
  'object-src': ["'none'"],
  'script-src': ["'self'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'worker-src': ["'self'", 'blob:'],
} as const;

/**
 * Headers for every BFF response: CSP, no framing (X-Frame-Options DENY as well), no
 * referrer (the callback URL carries the code: RF-02), same-origin isolation, HSTS over
 * https. No CORS headers are ever sent, so no other origin can read an answer (BF-CS-03).
 */
export function securityHeaders(options: { https: boolean }): Middleware {
  return helmet({
    contentSecurityPolicy: { useDefaults: false, directives: { ...CONTENT_SECURITY_POLICY } },
    xFrameOptions: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: options.https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    crossOriginResourcePolicy: { policy: 'same-origin' },
    crossOriginOpenerPolicy: { policy: 'same-origin' },
  });
}
