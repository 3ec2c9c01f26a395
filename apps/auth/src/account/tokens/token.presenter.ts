import type { CreatedTokenJson, TokenJson } from '@latchkey/contracts';
import type { CreatedPersonalAccessToken, TokenSummary } from '@latchkey/core';

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
    scopes: token.scopes,
  };
}

/** The only response that ever carries the token's value (TS-04: shown once). */
export function presentCreatedToken(created: CreatedPersonalAccessToken): CreatedTokenJson {
  return { token: presentToken(created.summary), value: created.token };
}
