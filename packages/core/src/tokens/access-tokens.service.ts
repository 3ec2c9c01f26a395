import {
  formatScope,
  MAX_TOKEN_LIFETIME_DAYS,
  storedScopes,
  THIRD_PARTY_SCOPES,
  type Scope,
  LATCHKEY_API_AUDIENCE,
} from '@latchkey/contracts';
import { digest, generateToken, lastFour, parseToken, TokenPrefix } from '@latchkey/credentials';
import type { AccessTokensTable, Executor } from '@latchkey/db';
import type { Clock } from '../clock.ts';
import { InvalidToken, LimitReached, NotFound, ValidationFailed } from '../errors.ts';
import { IdPrefix, newId } from '../ids.ts';
import { countActivePersonalAccessTokens, insertWithinCap } from '../limits/per-user-cap.ts';
import { markGrantRevoked } from '../authorization/grants.repository.ts';
import { tokenRowToSummary, type Principal, type TokenSummary } from './token.ts';
import {
  findAccessTokenRowById,
  accessTokenExists,
  findLiveAccessTokenByHash,
  insertAccessToken,
  listAccessTokenRows,
  markAccessTokenRevoked,
} from './tokens.repository.ts';
import { validateDescription, validateName } from '../text.ts';
import {
  actorOrDefault,
  inTransaction,
  OPERATOR,
  recordActorEvent,
  type AuditActor,
} from '../audit/security-events.ts';

/**
 * Authenticates an API call's bearer token (RFC 6750). A value with a bad prefix or checksum
 * is refused before any database read (DD-3). Expired, revoked, revoked-grant, revoked-client
 * and deleted-user tokens all fail as `invalid_token` (GQ-08, GQ-10, GQ-10b); a revoked PAT on the
 * very next request (RV-01).
 */
export async function authenticateAccessToken(db: Executor, clock: Clock, token: string): Promise<Principal> {
  const prefix = parseToken(token);
  if (prefix !== TokenPrefix.personalAccessToken && prefix !== TokenPrefix.accessToken) {
    throw new InvalidToken('The access token is invalid.');
  }
  const tokenHash = digest(token);
  const row = await findLiveAccessTokenByHash(db, tokenHash);
  if (!row) {
    // OB-02: the metric tells a revoked token (one that exists but is no longer live) from an
    // unknown one; one more read, on refusals only. The caller is told the same either way.
    const reason = (await accessTokenExists(db, tokenHash)) ? 'revoked' : 'invalid';
    throw new InvalidToken('The access token is invalid.', reason);
  }
  // GQ-10, RV-05: expiry is checked here, on the caller's clock, not by the lookup.
  if (Number(row.expires_at) <= clock.now()) throw new InvalidToken('The access token expired.', 'expired');
  return {
    tokenId: row.id,
    kind: row.kind,
    userId: row.user_id,
    userName: row.user_name,
    userEmail: row.user_email,
    clientId: row.client_id,
    issuedAt: Number(row.created_at),
    expiresAt: Number(row.expires_at),
    firstParty: row.kind === 'oauth' && Number(row.first_party) === 1,
    scopes: storedScopes(row.scope),
    audience: row.audience,
  };
}

export interface NewPersonalAccessToken {
  userId: string;
  name: string;
  /** TR-01: what it is for, at most 300 characters; blank or absent means none. */
  description?: string | null | undefined;
  /** Absolute expiry in ms; defaults to now + the configured lifetime (one year). */
  expiresAt?: number;
  /**
   * HD-14: the most active (neither revoked nor expired) personal access tokens the user may
   * hold, this one included; over it the creation is refused with LimitReached and nothing is
   * stored. Unset (the operators' CLI): no cap.
   */
  maxActive?: number | undefined;
  /** SC-07: what the token may do; every third-party scope when unset. */
  scopes?: readonly Scope[] | undefined;
  /** AU-11: who creates it, for the owner's security log; the user, or an operator when `maxActive` is unset. */
  actor?: AuditActor | undefined;
}

function tokenLimitReached(cap: number): LimitReached {
  const tokens = cap === 1 ? '1 active personal access token' : `${cap} active personal access tokens`;
  return new LimitReached(
    `You already have ${tokens}, the most one account may have. Revoke a token you no longer use to create another (expired tokens do not count).`,
  );
}

export interface CreatedPersonalAccessToken {
  token: string;
  summary: TokenSummary;
}

const MAX_LIFETIME_MS = MAX_TOKEN_LIFETIME_DAYS * 24 * 60 * 60 * 1000;

export async function createPersonalAccessToken(
  db: Executor,
  clock: Clock,
  tokenTtlSeconds: number,
  input: NewPersonalAccessToken,
): Promise<CreatedPersonalAccessToken> {
  const name = validateName(input.name, 'token name');
  // TR-01: optional, at most 300 characters of one line; blank is none.
  const description = input.description == null ? null : validateDescription(input.description);
  const now = clock.now();
  const expiresAt = input.expiresAt ?? now + tokenTtlSeconds * 1000;
  if (!Number.isSafeInteger(expiresAt) || expiresAt <= now) {
    throw new ValidationFailed('expires_at', 'The expiration must be in the future.');
  }
  if (expiresAt > now + MAX_LIFETIME_MS)
    throw new ValidationFailed('expires_at', 'The expiration must be within 5 years.');
  const scopes = input.scopes ?? THIRD_PARTY_SCOPES;
  // SC-07: at least one scope, and only what a third party may hold (`account` is the portal's own);
  // OI-01: never `openid`, which asks for an ID token and grants no access.
  if (scopes.length === 0) throw new ValidationFailed('scopes', 'Choose at least one scope.');
  const forbidden = scopes.filter((s) => !THIRD_PARTY_SCOPES.includes(s));
  if (forbidden.length > 0) {
    throw new ValidationFailed('scopes', `A personal access token cannot have the ${forbidden.join(', ')} scope.`);
  }
  const { token, row } = newPersonalAccessTokenRow({
    userId: input.userId,
    name,
    description,
    createdAt: now,
    expiresAt,
    scope: formatScope(scopes),
  });
  // AU-02, AU-11: the token and its event in the owner's log commit together; AU-14: one more
  // insert, no read.
  const actor =
    input.actor ?? (input.maxActive === undefined ? OPERATOR : { kind: 'user' as const, userId: input.userId });
  const insert = async (trx: Executor) => {
    await insertAccessToken(trx, row);
    await recordTokenEvent(trx, actor, 'token.created', row, now);
  };
  if (input.maxActive === undefined) {
    await inTransaction(db, insert);
  } else {
    const inserted = await insertWithinCap(db, {
      userId: input.userId,
      cap: input.maxActive,
      count: (trx) => countActivePersonalAccessTokens(trx, input.userId, now),
      insert,
    });
    if (!inserted) throw tokenLimitReached(input.maxActive);
  }
  return { token, summary: newTokenSummary(row, now) };
}

/** A new personal access token's value and row (its digest, never the value: DD-3). */
export function newPersonalAccessTokenRow(fields: {
  userId: string;
  name: string;
  description: string | null;
  createdAt: number;
  expiresAt: number;
  scope: string;
}): { token: string; row: AccessTokensTable } {
  const token = generateToken(TokenPrefix.personalAccessToken);
  const row: AccessTokensTable = {
    id: newId(IdPrefix.accessToken),
    token_hash: digest(token),
    kind: 'pat',
    user_id: fields.userId,
    client_id: null,
    grant_id: null,
    name: fields.name,
    description: fields.description,
    last4: lastFour(token),
    created_at: fields.createdAt,
    expires_at: fields.expiresAt,
    revoked_at: null,
    last_used_at: null,
    scope: fields.scope,
    // RS-03: a personal access token is for the Latchkey API.
    audience: LATCHKEY_API_AUDIENCE,
  };
  return { token, row };
}

/** The summary of a row just inserted. */
export function newTokenSummary(row: AccessTokensTable, now: number): TokenSummary {
  return tokenRowToSummary({ ...row, grant_revoked_at: null, client_revoked_at: null, client_first_party: null }, now);
}

/**
 * The user's tokens for the API tokens page: personal access tokens, and the access tokens
 * of third-party applications they authorized that still work. The portal's own session
 * tokens are not listed.
 */
export async function listTokensForUser(db: Executor, clock: Clock, userId: string): Promise<TokenSummary[]> {
  const now = clock.now();
  return (await listAccessTokenRows(db, { userId }))
    .filter((row) => row.kind === 'pat' || Number(row.client_first_party) !== 1)
    .map((row) => tokenRowToSummary(row, now))
    .filter((summary) => summary.kind === 'pat' || summary.status === 'active');
}

export async function listAllTokens(db: Executor, clock: Clock, userId?: string): Promise<TokenSummary[]> {
  const now = clock.now();
  return (await listAccessTokenRows(db, userId === undefined ? {} : { userId })).map((row) =>
    tokenRowToSummary(row, now),
  );
}

/**
 * Revokes one of the user's tokens. Revoking an OAuth access token revokes its whole grant,
 * so its refresh token dies with it (RV-02); nothing else, not even another user's token of the
 * same client (RV-06). Idempotent (RV-07). With no `userId` (operator CLI) any token may be revoked.
 */
export async function revokeAccessToken(
  db: Executor,
  clock: Clock,
  tokenId: string,
  userId?: string,
  actor?: AuditActor,
): Promise<TokenSummary> {
  const row = await findAccessTokenRowById(db, tokenId);
  if (!row || (userId !== undefined && row.user_id !== userId)) throw new NotFound('No such token.');
  const now = clock.now();
  // The token and its grant together or not at all: a failure between them would leave a
  // revoked token whose refresh token still works.
  const revoke = async (trx: Executor) => {
    const revoked = await markAccessTokenRevoked(trx, row.id, now);
    if (row.grant_id !== null) await markGrantRevoked(trx, row.grant_id, now);
    // AU-11: only the revocation that took effect is logged (RV-07: again is a no-op).
    if (revoked) await recordTokenEvent(trx, actorOrDefault(actor, userId), 'token.revoked', row, now);
  };
  await inTransaction(db, revoke);
  const after = (await listAccessTokenRows(db, { userId: row.user_id })).find((r) => r.id === row.id)!;
  return tokenRowToSummary(after, now);
}

/** AU-11: a token event in its owner's log; the target is the token's id, never its value. */
export function recordTokenEvent(
  trx: Executor,
  actor: AuditActor,
  type: 'token.created' | 'token.edited' | 'token.rolled' | 'token.revoked',
  row: Pick<AccessTokensTable, 'id' | 'user_id'>,
  at: number,
): Promise<void> {
  return recordActorEvent(trx, actor, { userId: row.user_id, type, target: { type: 'access_token', id: row.id }, at });
}
