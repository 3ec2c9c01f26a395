import { storedScopes, type Scope } from '@latchkey/contracts';
import type { AccessTokenListRow } from './tokens.repository.ts';

export type TokenStatus = 'active' | 'expired' | 'revoked';

/** What a token list shows: never the token, only its last four characters. */
export interface TokenSummary {
  id: string;
  kind: 'pat' | 'oauth';
  name: string;
  /** TR-01: what a personal access token is for, or null. */
  description: string | null;
  last4: string;
  clientId: string | null;
  createdAt: number;
  /** When it stops working: for a rolled token, the end of its overlap (TR-03). */
  expiresAt: number;
  lastUsedAt: number | null;
  /** TR-06: the address and User-Agent of the last use, or null. */
  lastUsedIp: string | null;
  lastUsedUserAgent: string | null;
  /** Set when revoked, or (TR-03) when a rolled token's overlap ended. */
  revokedAt: number | null;
  status: TokenStatus;
  /** What the token may do (SC-06), in registry order. */
  scopes: Scope[];
  /** TR-03: the token a roll made in its place, or null. */
  replacedBy: string | null;
}

/** The token's user, as the API sees it after authentication. */
export interface Principal {
  tokenId: string;
  kind: 'pat' | 'oauth';
  userId: string;
  userName: string;
  userEmail: string;
  clientId: string | null;
  /** When it was issued (ms): introspection's `iat` (OI-11). */
  issuedAt: number;
  /** TR-08: when the token expires (ms), which the API answers in Latchkey-Token-Expires-At. */
  expiresAt: number;
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
  const expiresAt = Number(row.expires_at);
  const replacedBy = row.replaced_by ?? null;
  // TR-03: a rolled token whose overlap ended was revoked by the roll, at the overlap's end.
  const rolledAway = replacedBy !== null && expiresAt <= now ? expiresAt : null;
  const revokedAt = row.revoked_at ?? row.grant_revoked_at ?? row.client_revoked_at ?? rolledAway;
  const status: TokenStatus = revokedAt !== null ? 'revoked' : expiresAt <= now ? 'expired' : 'active';
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    description: row.description ?? null,
    last4: row.last4,
    clientId: row.client_id,
    createdAt: Number(row.created_at),
    expiresAt,
    lastUsedAt: row.last_used_at === null ? null : Number(row.last_used_at),
    lastUsedIp: row.last_used_ip ?? null,
    lastUsedUserAgent: row.last_used_user_agent ?? null,
    revokedAt: revokedAt === null ? null : Number(revokedAt),
    status,
    scopes: storedScopes(row.scope),
    replacedBy,
  };
}
