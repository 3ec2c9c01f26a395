import { ROLL_OVERLAPS, type RollOverlap } from '@latchkey/contracts';
import type { AccessTokensTable, Executor } from '@latchkey/db';
import type { Clock } from '../clock.ts';
import { InvalidRequest, NotFound } from '../errors.ts';
import { validateDescription, validateName } from '../text.ts';
import { actorOrDefault, inTransaction, type AuditActor } from '../audit/security-events.ts';
import {
  newPersonalAccessTokenRow,
  newTokenSummary,
  recordTokenEvent,
  type CreatedPersonalAccessToken,
} from './access-tokens.service.ts';
import { tokenRowToSummary, type TokenSummary } from './token.ts';
import {
  claimRoll,
  findAccessTokenRowById,
  insertAccessToken,
  listAccessTokenRows,
  updateTokenDetails,
} from './tokens.repository.ts';

/** The owner's personal access token, or NotFound: another user's id is told the same as an unknown one. */
async function ownPersonalAccessToken(db: Executor, tokenId: string, userId?: string): Promise<AccessTokensTable> {
  const row = await findAccessTokenRowById(db, tokenId);
  if (!row || (userId !== undefined && row.user_id !== userId)) throw new NotFound('No such token.');
  if (row.kind !== 'pat') {
    throw new InvalidRequest(
      "An application's access token cannot be edited or rolled: revoke the application's access instead.",
    );
  }
  return row;
}

async function summaryOf(db: Executor, row: AccessTokensTable, now: number): Promise<TokenSummary> {
  const after = (await listAccessTokenRows(db, { userId: row.user_id })).find((r) => r.id === row.id)!;
  return tokenRowToSummary(after, now);
}

export interface TokenDetailsChange {
  name?: string | undefined;
  /** null or blank clears it. */
  description?: string | null | undefined;
}

/**
 * TR-02: a personal access token's name and description, after creation; only the fields given
 * change, and an invalid one changes nothing. Its value, scopes and expiry never change here.
 * With no `userId` (operator CLI) any user's token may be edited.
 */
export async function updatePersonalAccessToken(
  db: Executor,
  clock: Clock,
  tokenId: string,
  change: TokenDetailsChange,
  userId?: string,
  actor?: AuditActor,
): Promise<TokenSummary> {
  const row = await ownPersonalAccessToken(db, tokenId, userId);
  const details: { name?: string; description?: string | null } = {};
  if (change.name !== undefined) details.name = validateName(change.name, 'token name');
  if (change.description !== undefined) {
    details.description = change.description === null ? null : validateDescription(change.description);
  }
  const now = clock.now();
  await inTransaction(db, async (trx) => {
    await updateTokenDetails(trx, row.id, details);
    await recordTokenEvent(trx, actorOrDefault(actor, userId), 'token.edited', row, now);
  });
  return summaryOf(db, row, now);
}

export interface RolledPersonalAccessToken extends CreatedPersonalAccessToken {
  /** The old token after the roll: working until `expiresAt` (the end of the overlap), or revoked. */
  previous: TokenSummary;
}

/** TR-04: why a token cannot be rolled, in words its owner can act on. */
function notRollable(row: AccessTokensTable, now: number): InvalidRequest {
  if (row.replaced_by) {
    return new InvalidRequest('This token was already rolled: roll the token that replaced it.');
  }
  if (row.revoked_at !== null) return new InvalidRequest('This token was revoked: create a new token instead.');
  if (Number(row.expires_at) <= now) return new InvalidRequest('This token expired: create a new token instead.');
  return new InvalidRequest('This token cannot be rolled.');
}

/**
 * TR-03: a new value for a personal access token, with its name, description, scopes and
 * lifetime (the new one lives as long from now as the old one was made to live). The old value
 * works for `overlap` more (its own expiry if sooner) and is then refused as revoked; `none`
 * revokes it now. The new value is in the answer only (TS-04). TR-04: a revoked, expired or
 * already rolled token is refused with 400, and nothing changes; the claim on the old row and
 * the new row commit together, so two rolls of one token make one new token. Not held to the
 * active-token cap: a roll replaces a token, it adds none for longer than the overlap.
 */
export async function rollPersonalAccessToken(
  db: Executor,
  clock: Clock,
  tokenId: string,
  overlap: RollOverlap,
  userId?: string,
  actor?: AuditActor,
): Promise<RolledPersonalAccessToken> {
  const old = await ownPersonalAccessToken(db, tokenId, userId);
  const now = clock.now();
  const lifetime = Number(old.expires_at) - Number(old.created_at);
  const { token, row } = newPersonalAccessTokenRow({
    userId: old.user_id,
    name: old.name,
    description: old.description ?? null,
    createdAt: now,
    expiresAt: now + Math.max(lifetime, 1),
    scope: old.scope,
  });
  const roll = async (trx: Executor): Promise<boolean> => {
    const claimed = await claimRoll(trx, old.id, row.id, now, now + ROLL_OVERLAPS[overlap], Number(old.expires_at));
    if (!claimed) return false;
    await insertAccessToken(trx, row);
    // AU-11: one event, on the old token, in the same transaction.
    await recordTokenEvent(trx, actorOrDefault(actor, userId), 'token.rolled', old, now);
    return true;
  };
  const rolled = await inTransaction(db, roll);
  if (!rolled) {
    const current = await findAccessTokenRowById(db, old.id);
    throw notRollable(current ?? old, now);
  }
  return { token, summary: newTokenSummary(row, now), previous: await summaryOf(db, old, now) };
}
