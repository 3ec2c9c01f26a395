import { MAX_TOKEN_LIFETIME_DAYS } from '@latchkey/contracts';
import { digest, generateToken, hasTokenShape, lastFour, randomBase62, TokenPrefix } from '@latchkey/credentials';
import type { Executor, RegistrationTokensTable } from '@latchkey/db';
import type { Clock } from '../clock.ts';
import { InvalidToken, NotFound, ValidationFailed } from '../errors.ts';
import { canMatchStoredText, validateName } from '../text.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Public id of an initial access token, as `registration token list` shows it and `revoke` takes it. */
const ID_PREFIX = 'iat';

/** An initial access token as operators see it: never the value, only its last four characters. */
export interface RegistrationToken {
  id: string;
  label: string;
  last4: string;
  createdAt: number;
  expiresAt: number | null;
  revokedAt: number | null;
  status: 'active' | 'expired' | 'revoked';
}

export interface CreatedRegistrationToken extends RegistrationToken {
  /** Shown once; only its SHA-256 digest and last four characters are kept (DR-17). */
  token: string;
}

export interface NewRegistrationToken {
  /** What it is for, as the list shows it; none when left out. */
  label?: string | undefined;
  /** Days until it stops working, 1 to MAX_TOKEN_LIFETIME_DAYS; never when left out. */
  expiresInDays?: number | undefined;
}

function rowToRegistrationToken(row: RegistrationTokensTable, now: number): RegistrationToken {
  const expiresAt = row.expires_at === null ? null : Number(row.expires_at);
  const revokedAt = row.revoked_at === null ? null : Number(row.revoked_at);
  return {
    id: row.id,
    label: row.label,
    last4: row.last4,
    createdAt: Number(row.created_at),
    expiresAt,
    revokedAt,
    status: revokedAt !== null ? 'revoked' : expiresAt !== null && expiresAt <= now ? 'expired' : 'active',
  };
}

/** A label is read only by operators: a token name's rules (1 to 100 visible characters), reported as `label`. */
function validateLabel(value: string): string {
  try {
    return validateName(value, 'token name');
  } catch (err) {
    if (err instanceof ValidationFailed) throw new ValidationFailed('label', err.description);
    throw err;
  }
}

/**
 * DR-07: makes an initial access token, which opens POST /oauth/register when
 * DYNAMIC_CLIENT_REGISTRATION=token (RFC 7591 §3). Any number of clients may register with it
 * until it expires or is revoked.
 * @see https://www.rfc-editor.org/rfc/rfc7591#section-3
 */
export async function createRegistrationToken(
  db: Executor,
  clock: Clock,
  input: NewRegistrationToken = {},
): Promise<CreatedRegistrationToken> {
  const label = input.label === undefined ? '' : validateLabel(input.label);
  const days = input.expiresInDays;
  if (days !== undefined && !(Number.isInteger(days) && days >= 1 && days <= MAX_TOKEN_LIFETIME_DAYS)) {
    throw new ValidationFailed(
      'expires_in',
      `expires_in must be a whole number of days from 1 to ${MAX_TOKEN_LIFETIME_DAYS}.`,
    );
  }
  const token = generateToken(TokenPrefix.initialAccessToken);
  const now = clock.now();
  const row: RegistrationTokensTable = {
    id: `${ID_PREFIX}_${randomBase62(20)}`,
    token_hash: digest(token),
    last4: lastFour(token),
    label,
    created_at: now,
    expires_at: days === undefined ? null : now + days * DAY_MS,
    revoked_at: null,
  };
  await db.insertInto('registration_tokens').values(row).execute();
  return { ...rowToRegistrationToken(row, now), token };
}

/** Every initial access token, newest first, revoked and expired ones included. */
export async function listRegistrationTokens(db: Executor, clock: Clock): Promise<RegistrationToken[]> {
  const rows = await db
    .selectFrom('registration_tokens')
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
  const now = clock.now();
  return rows.map((row) => rowToRegistrationToken(row, now));
}

/** DR-08: registrations with it are refused from now on. Idempotent: a second revocation keeps the first time. */
export async function revokeRegistrationToken(db: Executor, clock: Clock, id: string): Promise<RegistrationToken> {
  const find = () =>
    canMatchStoredText(id)
      ? db.selectFrom('registration_tokens').selectAll().where('id', '=', id).executeTakeFirst()
      : Promise.resolve(undefined);
  if (!(await find())) throw new NotFound('No such registration token.');
  await db
    .updateTable('registration_tokens')
    .set({ revoked_at: clock.now() })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .execute();
  return rowToRegistrationToken((await find())!, clock.now());
}

/**
 * DR-07, DR-08: the initial access token a registration presents: well formed (checked before
 * any read), known by its digest, neither revoked nor expired. Every failure is the same
 * InvalidToken.
 */
export async function verifyRegistrationToken(db: Executor, clock: Clock, token: string): Promise<RegistrationToken> {
  const refuse = () => new InvalidToken('The initial access token is invalid, expired or revoked.');
  if (!hasTokenShape(token, TokenPrefix.initialAccessToken)) throw refuse();
  const row = await db
    .selectFrom('registration_tokens')
    .selectAll()
    .where('token_hash', '=', digest(token))
    .executeTakeFirst();
  if (!row) throw refuse();
  const found = rowToRegistrationToken(row, clock.now());
  if (found.status !== 'active') throw refuse();
  return found;
}
