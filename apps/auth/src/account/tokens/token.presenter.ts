import type { CreatedPersonalAccessToken, TokenSummary } from '@latchkey/core';

/** A token on the API tokens page: its last four characters, never the value (TS-04). */
export interface TokenJson {
  id: string;
  name: string;
  kind: 'pat' | 'oauth';
  last4: string;
  created_at: string;
  expires_at: string;
  last_used_at: string | null;
  status: 'active' | 'expired' | 'revoked';
}

const iso = (ms: number): string => new Date(ms).toISOString();

export function presentToken(token: TokenSummary): TokenJson {
  return {
    id: token.id,
    name: token.name,
    kind: token.kind,
    last4: token.last4,
    created_at: iso(token.createdAt),
    expires_at: iso(token.expiresAt),
    last_used_at: token.lastUsedAt === null ? null : iso(token.lastUsedAt),
    status: token.status,
  };
}

/** The only response that ever carries the token's value (TS-04: shown once). */
export function presentCreatedToken(created: CreatedPersonalAccessToken): { token: TokenJson; value: string } {
  return { token: presentToken(created.summary), value: created.token };
}
