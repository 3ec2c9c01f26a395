import type { OutgoingHttpHeaders } from 'node:http';
import { LATCHKEY_API_AUDIENCE, type Scope } from '@latchkey/contracts';
import { authenticateAccessToken, InvalidToken, type Clock, type Principal } from '@latchkey/core';
import type { Db } from '@latchkey/db';
import type { Logger } from '@latchkey/logging';
import type { TokenCheckCounters } from '@latchkey/observability';
import { classifyError, RETRY_AFTER_SECONDS } from '@latchkey/http';
import type { BearerCredentials } from '@latchkey/http';
import { challengesOf, type BearerEndpoint } from './challenge.ts';

/** Why a request gets no further than the token check, as an HTTP answer. */
export interface BearerRejection {
  status: 400 | 401 | 503;
  headers: OutgoingHttpHeaders;
  message: string;
  code: string;
}

export type BearerOutcome = { ok: true; principal: Principal } | { ok: false; rejection: BearerRejection };

/** RS-06: what a token of another resource server is told. */
export const NOT_FOR_THIS_API = 'The access token is not for this API.';

/**
 * RFC 6750 §3 (D-6), with RS-14's `resource_metadata` pointing at `endpoint`'s RFC 9728
 * document. Without credentials: 401 and no `error` attribute (§3.1 "the resource server SHOULD
 * NOT include an error code").
 */
export function noCredentials(endpoint: BearerEndpoint): BearerRejection {
  return {
    status: 401,
    headers: { 'www-authenticate': challengesOf(endpoint).noCredentials },
    message: 'Authentication required',
    code: 'UNAUTHENTICATED',
  };
}

/** A malformed Authorization header: 400 `invalid_request`. */
export function malformed(endpoint: BearerEndpoint, reason: string): BearerRejection {
  return {
    status: 400,
    headers: { 'www-authenticate': challengesOf(endpoint).invalidRequest(reason) },
    message: reason,
    code: 'BAD_REQUEST',
  };
}

/**
 * A token that is unknown, expired, revoked, of a revoked client, of a deleted user, or for
 * another resource server (RS-06): 401 `invalid_token`.
 */
export function invalidToken(endpoint: BearerEndpoint, description: string): BearerRejection {
  return {
    status: 401,
    headers: { 'www-authenticate': challengesOf(endpoint).invalidToken(description) },
    message: description,
    code: 'UNAUTHENTICATED',
  };
}

/**
 * SC-06, RS-15 (RFC 6750 §3.1): the token is valid but lacks a scope the request needs; `scope`
 * names the ones it lacks, in registry order, and `resource_metadata` the endpoint's document.
 */
export function insufficientScopeChallenge(endpoint: BearerEndpoint, missing: readonly Scope[]): string {
  return challengesOf(endpoint).insufficientScope(missing);
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
  /** OB-02: the token check counter's children (tokenCheckCountersOf), bound once per route. */
  tokenChecks?: TokenCheckCounters | undefined;
}

/**
 * The API's token check at `endpoint` (/graphql, /mcp): the header's verdict, then one indexed
 * read, then the audience. Nothing about the endpoint is worked out on the way to a principal;
 * a rejection's challenge was built on the endpoint's first use (challenge.ts). OB-02: every
 * check of a presented token is counted by outcome (`invalid` for another API's token, the
 * reason of InvalidToken otherwise, `unavailable` for an outage); a request without a token, or
 * with a malformed header, had no token to check and is not counted.
 */
export async function authenticateBearer(
  deps: BearerDeps,
  credentials: BearerCredentials,
  endpoint: BearerEndpoint,
): Promise<BearerOutcome> {
  if (credentials.kind === 'none') return { ok: false, rejection: noCredentials(endpoint) };
  if (credentials.kind === 'malformed') return { ok: false, rejection: malformed(endpoint, credentials.reason) };
  let principal: Principal;
  try {
    // Prefix and CRC32 are checked inside before any database read (DD-3).
    principal = await authenticateAccessToken(deps.db, deps.clock, credentials.token);
  } catch (err) {
    const kind = classifyError(err);
    if (kind.kind === 'domain' && kind.error instanceof InvalidToken) {
      deps.tokenChecks?.[kind.error.reason].inc();
      return { ok: false, rejection: invalidToken(endpoint, kind.error.description) };
    }
    // Anything else is not the token's fault: an outage (503) or a bug, which the app answers 500.
    if (kind.kind !== 'dependency') throw err;
    deps.tokenChecks?.unavailable.inc();
    deps.logger.error({ err }, 'token check failed: database unavailable');
    return { ok: false, rejection: UNAVAILABLE };
  }
  // RS-06 (RFC 8707, RFC 9068 §4): a token minted for another resource server is no token here,
  // however valid it is there. The audience came with the token's row: no further read.
  if (principal.audience !== LATCHKEY_API_AUDIENCE) {
    deps.tokenChecks?.invalid.inc();
    return { ok: false, rejection: invalidToken(endpoint, NOT_FOR_THIS_API) };
  }
  deps.tokenChecks?.ok.inc();
  return { ok: true, principal };
}
