import { createHash } from 'node:crypto';
import { Router } from 'express';
import type { AuthDeps } from '../../deps.ts';
import { signingKeysOf } from '../../deps.ts';

export const JWKS_PATH = '/.well-known/jwks.json';

/**
 * OI-08: how long a verifier may keep the key set without asking again. A new key is published
 * DEFAULT_ROTATION_DELAY_MS (1 h) before it signs, and an instance re-reads the keys within a
 * minute, so a copy at most 5 minutes old always holds the key that signs; a retired key stays
 * published for an ID token's whole lifetime after it stops signing. The 5 minutes (not the
 * hour the delay would allow) bound how long a verifier that never refetches on an unknown `kid`
 * fails after an emergency rotation (`keys rotate --delay 0`).
 */
export const JWKS_MAX_AGE_SECONDS = 300;

/**
 * RFC 9110 §13.1.2: If-None-Match is `*` or a list of entity tags, compared weakly. Checked here
 * rather than by Express's `req.fresh`, which ignores the condition when the request also says
 * `Cache-Control: no-cache` (as fetch() does on every conditional request): that directive is
 * for caches, and the origin may still answer 304.
 */
function matchesNoneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/**
 * GET /.well-known/jwks.json (RFC 7517 §5, OpenID Connect Discovery `jwks_uri`). OI-08: the public
 * halves only, as the key ring publishes them (kty, the key's public members, kid, alg, use sig).
 * Cacheable by anyone; its strong ETag is the digest of the set, so it changes only when the keys
 * do (a rotation, or a retired key dropping out), and a revalidation with If-None-Match gets 304.
 */
export function jwksRouter(deps: AuthDeps): Router {
  const router = Router();
  router.get(JWKS_PATH, async (req, res) => {
    const body = JSON.stringify(await signingKeysOf(deps).jwks());
    const etag = `"${createHash('sha256').update(body).digest('base64url')}"`;
    res.setHeader('Cache-Control', `public, max-age=${JWKS_MAX_AGE_SECONDS}`);
    res.removeHeader('Pragma');
    res.setHeader('ETag', etag);
    if (matchesNoneMatch(req.headers['if-none-match'], etag)) {
      res.status(304).end();
      return;
    }
    // application/json rather than RFC 7517's jwk-set+json: every verifier library accepts it.
    res.type('application/json').send(body);
  });
  return router;
}
