import type { AdminTokenJson, CreatedTokenJson, TokenJson } from '@latchkey/contracts';
import type { CreatedPersonalAccessToken } from './access-tokens.service.ts';
import type { TokenSummary } from './token.ts';

const iso = (ms: number): string => new Date(ms).toISOString();
const isoOrNull = (ms: number | null): string | null => (ms === null ? null : iso(ms));

/**
 * A token as the account API answers it (the contract's TokenJson), and the part of the admin
 * CLI's answer the two share: never the value, only its last four characters (TS-04).
 */
export function presentToken(token: TokenSummary): TokenJson {
  return {
    id: token.id,
    name: token.name,
    description: token.description,
    kind: token.kind,
    last4: token.last4,
    created_at: iso(token.createdAt),
    expires_at: iso(token.expiresAt),
    last_used_at: isoOrNull(token.lastUsedAt),
    last_used_ip: token.lastUsedIp,
    last_used_user_agent: token.lastUsedUserAgent,
    status: token.status,
    scopes: token.scopes,
    replaced_by: token.replacedBy,
  };
}

/** The only answer that ever carries the token's value (TS-04: shown once): creation and roll (TR-03). */
export function presentCreatedToken(created: CreatedPersonalAccessToken): CreatedTokenJson {
  return { token: presentToken(created.summary), value: created.token };
}

/** A token as operators see it: what the owner sees, plus its application and when it was revoked. */
export function presentAdminToken(token: TokenSummary): AdminTokenJson {
  return { ...presentToken(token), client_id: token.clientId, revoked_at: isoOrNull(token.revokedAt) };
}
