import { LATCHKEY_API_AUDIENCE, type Scope } from '@latchkey/contracts';
import type { Executor } from '@latchkey/db';
import type { Clock } from '../clock.ts';
import { InvalidToken } from '../errors.ts';
import { findResourceServerRowById } from '../resources/resource-servers.repository.ts';
import { authenticateAccessToken } from './access-tokens.service.ts';

/** A token that is active (RFC 7662 §2.2): what a resource server may learn of it. */
export interface ActiveToken {
  kind: 'pat' | 'oauth';
  scopes: Scope[];
  userId: string;
  /** The client it was issued to; null for a personal access token. */
  clientId: string | null;
  issuedAt: number;
  expiresAt: number;
  /**
   * RS-10: the resource server it is for, as its URI: API_URL for the Latchkey API, the
   * registered URI for another. A resource server compares it to its own.
   */
  audience: string;
}

/**
 * OI-11: RFC 7662 §2.2 for an access token (OAuth or personal). It is active exactly when the API
 * would accept it: the same check (authenticateAccessToken) reads the database on every call
 * (DD-5: no cache, so a revocation committed before the request is never answered as active).
 * Revoked, expired, unknown, malformed, of a revoked grant or client: undefined, whichever it
 * was. Refresh tokens are not introspected: resource servers are sent access tokens only, and a
 * refresh token's client knows what it holds.
 *
 * RS-10: `apiUrl` (API_URL) is the Latchkey API's audience URI; a registered resource server's is
 * read from its row (a second read, for those tokens only). A token whose resource server is
 * revoked is inactive (RS-09), even one issued under a grant that slipped past the revocation.
 */
export async function introspectAccessToken(
  db: Executor,
  clock: Clock,
  token: string,
  apiUrl: string,
): Promise<ActiveToken | undefined> {
  let principal;
  try {
    principal = await authenticateAccessToken(db, clock, token);
  } catch (err) {
    if (err instanceof InvalidToken) return undefined;
    throw err;
  }
  let audience = apiUrl;
  if (principal.audience !== LATCHKEY_API_AUDIENCE) {
    const server = await findResourceServerRowById(db, principal.audience);
    if (!server || server.revoked_at !== null) return undefined;
    audience = server.uri;
  }
  return {
    kind: principal.kind,
    scopes: principal.scopes,
    userId: principal.userId,
    clientId: principal.clientId,
    issuedAt: principal.issuedAt,
    expiresAt: principal.expiresAt,
    audience,
  };
}
