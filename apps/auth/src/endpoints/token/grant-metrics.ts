import type { RequestHandler, Response } from 'express';
import { ErrorCode } from '@latchkey/core';
import { classifyError } from '@latchkey/http';
import type { CounterChild, Metrics } from '@latchkey/observability';
import { OAUTH_CODES } from '../oauth-json/oauth-error.handler.ts';
import { GrantType } from './token.schema.ts';

/** The `grant_type` label: a supported grant, else `other` (missing, unknown, repeated). */
const GRANT_TYPES: ReadonlySet<string> = new Set(Object.values(GrantType));

const OUTCOME = 'grantOutcome';

/**
 * The outcome of a grant that failed once its handler ran: the OAuth error code the endpoint
 * answers with (the codes oauth-error.handler.ts answers with, classified alike), `temporarily_unavailable` for an
 * outage, `server_error` for anything else. Never text from the request.
 */
export function grantFailureOutcome(err: unknown): string {
  const kind = classifyError(err);
  if (kind.kind === 'dependency') return 'temporarily_unavailable';
  if (kind.kind === 'input') return ErrorCode.invalidRequest;
  if ((kind.kind === 'domain' || kind.kind === 'http') && OAUTH_CODES.has(kind.error.code)) return kind.error.code;
  return 'server_error';
}

/** What the grant's handler decided: `ok` or grantFailureOutcome's code. */
export function setGrantOutcome(res: Response, outcome: string): void {
  res.locals[OUTCOME] = outcome;
}

/**
 * A request refused before its grant ran (the client checks, the limits, the body), by its
 * status: each status has one code there (client-authenticated.router.ts). A repeated
 * `resource` (invalid_target, 400) is counted as invalid_request.
 */
function outcomeBeforeGrant(status: number): string {
  if (status === 401) return ErrorCode.invalidClient;
  if (status === 429) return ErrorCode.slowDown; // client-auth.rate-limit.ts answers slow_down
  if (status === 503) return 'temporarily_unavailable';
  if (status >= 500) return 'server_error';
  return ErrorCode.invalidRequest;
}

/**
 * OB-03: counts every answered POST /oauth/token by grant type and outcome, in
 * latchkey_token_grants_total. One 'finish' listener per token request (not a hot path: each
 * grant writes to the database); the children are bound on first use, the supported grants'
 * `ok` ones at once so they are exported at 0. A request whose client went away is not counted.
 */
export function countGrants(metrics: Metrics): RequestHandler {
  const children = new Map<string, CounterChild>();
  const child = (grantType: string, outcome: string): CounterChild => {
    const key = `${grantType} ${outcome}`;
    let counter = children.get(key);
    if (counter === undefined) {
      counter = metrics.grants.labels(grantType, outcome);
      children.set(key, counter);
    }
    return counter;
  };
  for (const grantType of GRANT_TYPES) child(grantType, 'ok').inc(0);

  return function countGrant(req, res, next) {
    res.once('finish', () => {
      const sent = (req.body as Record<string, unknown> | undefined)?.grant_type;
      const grantType = typeof sent === 'string' && GRANT_TYPES.has(sent) ? sent : 'other';
      const decided = res.locals[OUTCOME] as string | undefined;
      child(grantType, decided ?? outcomeBeforeGrant(res.statusCode)).inc();
    });
    next();
  };
}
