import type { OutgoingHttpHeaders } from 'node:http';
import { formatScope, type Scope } from '@latchkey/contracts';
import { authenticateAccessToken, InvalidToken, type Clock, type Principal } from '@latchkey/core';
import type { Db } from '@latchkey/db';
import type { Logger } from '@latchkey/logging';
import { classifyError, RETRY_AFTER_SECONDS } from '@latchkey/http';
import type { BearerCredentials } from '@latchkey/http';

/** Why a request gets no further than the token check, as an HTTP answer. */
export interface BearerRejection {
  status: 400 | 401 | 503;
  headers: OutgoingHttpHeaders;
  message: string;
  code: string;
}

export type BearerOutcome = { ok: true; principal: Principal } | { ok: false; rejection: BearerRejection };

const REALM = 'Bearer realm="api"';

/**
 * RFC 6750 §3 (D-6). Without credentials: 401 and a bare challenge, no `error` attribute
 * (§3.1 "the resource server SHOULD NOT include an error code"). A malformed header:
 * 400 `invalid_request`. A token that is unknown, expired, revoked, of a revoked client or
 * of a deleted user: 401 `invalid_token`.
 */
export const NO_CREDENTIALS: BearerRejection = Object.freeze({
  status: 401,
  headers: { 'www-authenticate': REALM },
  message: 'Authentication required',
  code: 'UNAUTHENTICATED',
});

function malformed(reason: string): BearerRejection {
  return { status: 400, headers: { 'www-authenticate': `${REALM}, error="invalid_request"` }, message: reason, code: 'BAD_REQUEST' };
}

function invalidToken(description: string): BearerRejection {
  return { status: 401, headers: { 'www-authenticate': `${REALM}, error="invalid_token"` }, message: description, code: 'UNAUTHENTICATED' };
}

/**
 * SC-06 (RFC 6750 §3.1): the token is valid but lacks a scope the request needs; `scope` names
 * the ones it lacks, in registry order.
 */
export function insufficientScopeChallenge(missing: readonly Scope[]): string {
  return `${REALM}, error="insufficient_scope", scope="${formatScope(missing)}"`;
}

/**
 * D-10: when the token cannot be checked (the database failed), the answer is 503 with
 * Retry-After, never 401: a client that sees `invalid_token` discards a token that may be fine.
 * A bug in the check is thrown on, a 500, never retried as an outage.
 */
export const UNAVAILABLE: BearerRejection = Object.freeze({
  status: 503,
  headers: { 'retry-after': String(RETRY_AFTER_SECONDS) },
  message: 'The service is temporarily unavailable. Try again shortly.',
  code: 'SERVICE_UNAVAILABLE',
});

export interface BearerDeps {
  db: Db;
  clock: Clock;
  logger: Logger;
}

export async function authenticateBearer(deps: BearerDeps, credentials: BearerCredentials): Promise<BearerOutcome> {
  if (credentials.kind === 'none') return { ok: false, rejection: NO_CREDENTIALS };
  if (credentials.kind === 'malformed') return { ok: false, rejection: malformed(credentials.reason) };
  try {
    // Prefix and CRC32 are checked inside before any database read (DD-3).
    return { ok: true, principal: await authenticateAccessToken(deps.db, deps.clock, credentials.token) };
  } catch (err) {
    const kind = classifyError(err);
    if (kind.kind === 'domain' && kind.error instanceof InvalidToken) {
      return { ok: false, rejection: invalidToken(kind.error.description) };
    }
    // Anything else is not the token's fault: an outage (503) or a bug, which the app answers 500.
    if (kind.kind !== 'dependency') throw err;
    deps.logger.error({ err }, 'token check failed: database unavailable');
    return { ok: false, rejection: UNAVAILABLE };
  }
}
