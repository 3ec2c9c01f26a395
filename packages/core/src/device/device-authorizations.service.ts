import { randomBytes, randomInt } from 'node:crypto';
import { formatScope, storedScopes, type Scope } from '@latchkey/contracts';
import { digest, randomBase62 } from '@latchkey/credentials';
import type { Db, DeviceAuthorizationsTable } from '@latchkey/db';
import type { Client } from '../clients/client.ts';
import { findActiveClient } from '../clients/clients.service.ts';
import type { Clock } from '../clock.ts';
import type { RedeemedCode } from '../authorization/codes.service.ts';
import { insertGrant } from '../authorization/grants.repository.ts';
import { AccessDenied, AuthorizationPending, ExpiredToken, InvalidGrant, SlowDown } from '../errors.ts';
import { IdPrefix, newId } from '../ids.ts';
import type { IdTokenSubject } from '../oidc/id-token.ts';
import { issueTokenPair, type TokenLifetimes } from '../tokens/issue-token-pair.ts';
import { findUserById } from '../users/users.service.ts';
import { actorOrDefault, inTransaction, recordActorEvent, type AuditActor } from '../audit/security-events.ts';
import {
  findDeviceAuthorizationByDeviceCodeHash,
  findDeviceAuthorizationByUserCodeHash,
  insertDeviceAuthorization,
  markDeviceAuthorizationDecided,
  markDeviceAuthorizationRedeemed,
  recordTimelyPoll,
  slowDownPolling,
} from './device-authorizations.repository.ts';

/** DV-03: a device code lives 10 minutes (RFC 8628 §3.2 `expires_in`). */
export const DEVICE_CODE_TTL_MS = 10 * 60 * 1000;
/** DV-05: the polling interval a device starts with, in seconds; each `slow_down` adds 5. */
export const DEVICE_POLL_INTERVAL_SECONDS = 5;
/** RFC 8628 §3.5: what each `slow_down` adds to the interval. */
const SLOW_DOWN_STEP_SECONDS = 5;
/** RFC 8628 §6.1: consonants only, so no word can be spelled and no two letters look alike. */
export const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';
const USER_CODE_LENGTH = 8;
/** 20^8 ≈ 2.6e10 codes; a collision with a stored one is retried, this many times at most. */
const USER_CODE_ATTEMPTS = 5;
const USER_CODE_SHAPE = new RegExp(`^[${USER_CODE_ALPHABET}]{${USER_CODE_LENGTH}}$`);

/** What POST /oauth/device_authorization answers (RFC 8628 §3.2), the URIs aside. */
export interface StartedDeviceAuthorization {
  deviceCode: string;
  /** Eight letters of USER_CODE_ALPHABET, shown as `WDJB-MJHT`. */
  userCode: string;
  expiresIn: number;
  interval: number;
}

/** A pending request as the verification page shows it, found by its user code. */
export interface PendingDeviceAuthorization {
  id: string;
  client: Client;
  scopes: Scope[];
  audience: string;
  expiresAt: number;
}

/**
 * DV-01: eight letters of USER_CODE_ALPHABET, each from the CSPRNG; `randomInt` rejects samples
 * past the largest multiple of 20, so every letter is equally likely (no modulo bias).
 * @see https://www.rfc-editor.org/rfc/rfc8628#section-6.1
 */
function generateUserCode(): string {
  let code = '';
  for (let i = 0; i < USER_CODE_LENGTH; i += 1) code += USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)];
  return code;
}

/**
 * Starts a device authorization for `client` (which must have opted in: deviceGrant) with the
 * scopes and audience already resolved by the caller. Both codes are random; only their SHA-256
 * digests are stored (DV-04). The device code is 256 bits from the CSPRNG, base64url (DV-02).
 * @see https://www.rfc-editor.org/rfc/rfc8628#section-3.2
 */
export async function startDeviceAuthorization(
  db: Db,
  clock: Clock,
  request: { client: Client; scopes: readonly Scope[]; audience: string },
): Promise<StartedDeviceAuthorization> {
  const deviceCode = randomBytes(32).toString('base64url');
  const now = clock.now();
  for (let attempt = 1; ; attempt += 1) {
    const userCode = generateUserCode();
    const row: DeviceAuthorizationsTable = {
      id: `dva_${randomBase62(20)}`,
      device_code_hash: digest(deviceCode),
      user_code_hash: digest(userCode),
      client_id: request.client.id,
      scope: formatScope(request.scopes),
      audience: request.audience,
      status: 'pending',
      user_id: null,
      auth_time: null,
      interval_seconds: DEVICE_POLL_INTERVAL_SECONDS,
      last_polled_at: null,
      created_at: now,
      expires_at: now + DEVICE_CODE_TTL_MS,
      decided_at: null,
    };
    try {
      await insertDeviceAuthorization(db, row);
      return { deviceCode, userCode, expiresIn: DEVICE_CODE_TTL_MS / 1000, interval: DEVICE_POLL_INTERVAL_SECONDS };
    } catch (err) {
      // DV-01: the user code lost a race (or a draw) on the unique index; draw another.
      const taken = await findDeviceAuthorizationByUserCodeHash(db, row.user_code_hash);
      if (!taken || attempt >= USER_CODE_ATTEMPTS) throw err;
    }
  }
}

/**
 * DV-01: `WDJB-MJHT`, `wdjbmjht`, ` wdjb mjht `… → `WDJBMJHT`; undefined when it cannot be a user
 * code (another length, a letter outside the alphabet). RFC 8628 §6.1: case, hyphens and spaces
 * are only presentation.
 */
export function normalizeUserCode(input: string): string | undefined {
  const code = input.replace(/[\s-]/g, '').toUpperCase();
  return USER_CODE_SHAPE.test(code) ? code : undefined;
}

/** `WDJBMJHT` → `WDJB-MJHT`. */
export function formatUserCode(userCode: string): string {
  return `${userCode.slice(0, 4)}-${userCode.slice(4)}`;
}

/** The pending, unexpired request with this user code (any case, with or without the hyphen); else undefined. */
export async function findPendingDeviceAuthorization(
  db: Db,
  clock: Clock,
  userCode: string,
): Promise<PendingDeviceAuthorization | undefined> {
  const normalized = normalizeUserCode(userCode);
  if (normalized === undefined) return undefined;
  const row = await findDeviceAuthorizationByUserCodeHash(db, digest(normalized));
  if (!row || row.status !== 'pending' || Number(row.expires_at) <= clock.now()) return undefined;
  const client = await findActiveClient(db, row.client_id);
  if (!client) return undefined;
  return {
    id: row.id,
    client,
    scopes: storedScopes(row.scope),
    audience: row.audience,
    expiresAt: Number(row.expires_at),
  };
}

/**
 * The user's decision on a pending request: approved (with when they signed in, for an ID
 * token's auth_time) or denied. Atomic: only a request still pending and unexpired changes, so a
 * code is decided by one user only; false when it was no longer pending (DV-06). AU-13: an
 * approval that took effect is `device.approved` in the user's log, in the same transaction
 * (AU-02), by `actor` (the device page passes the user and the request's origin).
 */
export async function decideDeviceAuthorization(
  db: Db,
  clock: Clock,
  decision: { id: string; userId: string; approved: boolean; authTime?: number | undefined },
  actor?: AuditActor,
): Promise<boolean> {
  const now = clock.now();
  return inTransaction(db, async (trx) => {
    const decided = await markDeviceAuthorizationDecided(trx, decision.id, now, {
      status: decision.approved ? 'approved' : 'denied',
      userId: decision.userId,
      authTime: decision.authTime ?? null,
    });
    if (decided && decision.approved) {
      await recordActorEvent(trx, actorOrDefault(actor, decision.userId), {
        userId: decision.userId,
        type: 'device.approved',
        target: { type: 'device_authorization', id: decision.id },
        at: now,
      });
    }
    return decided;
  });
}

/**
 * The device polling the token endpoint (RFC 8628 §3.4–3.5): AuthorizationPending, SlowDown
 * (polled sooner than the interval; the interval grows by 5 s), AccessDenied, ExpiredToken,
 * InvalidGrant (unknown code, another client's, already redeemed); or, once approved, a token
 * pair under a new grant, redeemed exactly once (atomically, as an authorization code).
 *
 * Order: whose code it is first (DV-07, nothing changes for another client's); then redeemed,
 * expired, denied; an approved code is redeemed at once (the interval only paces a device while
 * it waits: `slow_down` is a kind of `authorization_pending`, §3.5); a pending one is paced (DV-05).
 * @see https://www.rfc-editor.org/rfc/rfc8628#section-3.5
 */
export async function pollDeviceAuthorization(
  db: Db,
  clock: Clock,
  request: { client: Client; deviceCode: string; lifetimes: TokenLifetimes },
): Promise<RedeemedCode> {
  const row = await findDeviceAuthorizationByDeviceCodeHash(db, digest(request.deviceCode));
  if (!row || row.client_id !== request.client.id) throw new InvalidGrant('The device code is invalid.');
  if (row.status === 'redeemed') throw new InvalidGrant('The device code was already used.');
  const now = clock.now();
  // DV-12, DV-11: expiry, then a denial, are final answers.
  if (Number(row.expires_at) <= now) throw new ExpiredToken('The device code expired. Start again.');
  if (row.status === 'denied') throw new AccessDenied('The user denied the request.');
  if (row.status === 'approved') return redeem(db, now, request, row);
  if (!(await recordTimelyPoll(db, row.id, now))) {
    await slowDownPolling(db, row.id, now, SLOW_DOWN_STEP_SECONDS);
    throw new SlowDown(
      `Polling too fast. Wait ${row.interval_seconds + SLOW_DOWN_STEP_SECONDS} seconds between requests.`,
    );
  }
  throw new AuthorizationPending('The user has not yet approved or denied the request.');
}

/** DV-08: approved → redeemed, the grant and the pair in one transaction: a second poll gets nothing. */
async function redeem(
  db: Db,
  now: number,
  request: { client: Client; lifetimes: TokenLifetimes },
  row: DeviceAuthorizationsTable,
): Promise<RedeemedCode> {
  const userId = row.user_id;
  if (userId === null) throw new InvalidGrant('The device code is invalid.');
  const scopes = storedScopes(row.scope);
  const idToken = scopes.includes('openid') ? await idTokenSubjectOf(db, userId, row) : null;
  const pair = await db.transaction().execute(async (trx) => {
    if (!(await markDeviceAuthorizationRedeemed(trx, row.id))) return undefined;
    const grantId = newId(IdPrefix.grant);
    await insertGrant(trx, {
      id: grantId,
      user_id: userId,
      client_id: request.client.id,
      created_at: now,
      revoked_at: null,
      scope: row.scope,
      audience: row.audience,
    });
    return issueTokenPair(trx, now, request.lifetimes, {
      grantId,
      clientId: request.client.id,
      clientName: request.client.name,
      userId,
      scopes,
      audience: row.audience,
    });
  });
  if (!pair) throw new InvalidGrant('The device code was already used.');
  return { ...pair, idToken };
}

/** OI-02: the approving user and when they signed in; no nonce (a device request carries none). */
async function idTokenSubjectOf(db: Db, userId: string, row: DeviceAuthorizationsTable): Promise<IdTokenSubject> {
  const user = await findUserById(db, userId);
  if (!user) throw new InvalidGrant('The device code is invalid.');
  return { user, nonce: null, authTime: row.auth_time === null ? null : Number(row.auth_time) };
}
