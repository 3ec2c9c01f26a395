import { storedScopes, type Scope } from '@latchkey/contracts';
import type { AccessTokenListRow } from './tokens.repository.ts';

export type TokenStatus = 'active' | 'expired' | 'revoked';

/** What a token list shows: never the token, only its last four characters. */
export interface TokenSummary {
  id: string;
  kind: 'pat' | 'oauth';
  name: string;
  last4: string;
  clientId: string | null;
  createdAt: number;
  expiresAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
  status: TokenStatus;
  /** What the token may do (SC-06), in registry order. */
  scopes: Scope[];
}

/** The token's user, as the API sees it after authentication. */
export interface Principal {
  tokenId: string;
  kind: 'pat' | 'oauth';
  userId: string;
  userName: string;
  userEmail: string;
  clientId: string | null;
  /** True only for access tokens issued to the portal's own client. */
  firstParty: boolean;
  /** What the token may do (SC-06): the API and /account/* check these, not the token's kind. */
  scopes: Scope[];
  /**
   * RS-06: the resource server it is for, LATCHKEY_API_AUDIENCE or a registered resource server's
   * id; a resource server refuses a token whose audience is not itself.
   */
  audience: string;
}

/** The OAuth token response (RFC 6749 §5.1) before presentation. */
export interface TokenPair {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
  /** The access token's scopes, for the response's `scope` (RFC 6749 §5.1, SC-04). */
  scopes: Scope[];
}

export function tokenRowToSummary(row: AccessTokenListRow, now: number): TokenSummary {
  const revokedAt = row.revoked_at ?? row.grant_revoked_at ?? row.client_revoked_at;
  const expiresAt = Number(row.expires_at);
  const status: TokenStatus = revokedAt !== null ? 'revoked' : expiresAt <= now ? 'expired' : 'active';
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    last4: row.last4,
    clientId: row.client_id,
    createdAt: Number(row.created_at),
    expiresAt,
    lastUsedAt: row.last_used_at === null ? null : Number(row.last_used_at),
    revokedAt: revokedAt === null ? null : Number(revokedAt),
    status,
    scopes: storedScopes(row.scope),
  };
}
