import type { ErrorRequestHandler } from 'express';
import { ErrorCode } from '@latchkey/core';
import { classifyError, RETRY_AFTER_SECONDS, setNoStore } from '@latchkey/http';
import type { AuthDeps } from '../../deps.ts';
import { credentialsOf } from './client-credentials.ts';

/** RFC 6749 §5.2: error_description is limited to %x20-21 / %x23-5B / %x5D-7E (AC-10). */
const SAFE_DESCRIPTION = /^[\x20-\x21\x23-\x5B\x5D-\x7E]*$/;

/**
 * RFC 6749 §5.2, RFC 7009 §2.2.1, RFC 8707 §2 (`invalid_target`, RS-02, RS-04, RS-05) and RFC 8628
 * §3.5 (the device grant's): the codes
 * these endpoints answer with (each error class carries its status).
 */
export const OAUTH_CODES: ReadonlySet<string> = new Set([
  ErrorCode.invalidRequest,
  ErrorCode.invalidClient,
  ErrorCode.invalidGrant,
  ErrorCode.invalidScope,
  ErrorCode.invalidTarget,
  ErrorCode.unsupportedGrantType,
  // DV-09, DV-05 (RFC 8628 §3.5): the device grant's answers, each a 400.
  ErrorCode.unauthorizedClient,
  ErrorCode.authorizationPending,
  ErrorCode.slowDown,
  ErrorCode.accessDenied,
  ErrorCode.expiredToken,
]);

interface OAuthFailure {
  status: number;
  error: string;
  description: string;
}

/** A body that could not be read (TK-03, TK-05, HD-02): always invalid_request. */
const BODY_DESCRIPTION = {
  400: 'The request body could not be read.',
  413: 'The request body is too large.',
  415: 'The request body must be an unencoded (or gzip, deflate or br) UTF-8 form.',
} as const;

const SERVER_ERROR: OAuthFailure = {
  status: 500,
  error: 'server_error',
  description: 'The authorization server encountered an unexpected error.',
};

/** The runtime's classification in RFC 6749 §5.2's terms. A core error these endpoints never answer with is a bug. */
function classify(err: unknown): OAuthFailure {
  const kind = classifyError(err);
  switch (kind.kind) {
    case 'domain':
    case 'http':
      if (kind.kind === 'domain' && !OAUTH_CODES.has(kind.error.code)) return SERVER_ERROR;
      return { status: kind.error.status, error: kind.error.code, description: kind.error.description };
    case 'input':
      return { status: kind.status, error: ErrorCode.invalidRequest, description: BODY_DESCRIPTION[kind.status] };
    case 'dependency':
      // TK-DB-01: an outage is never invalid_grant or invalid_client, which would make a client drop good credentials.
      return {
        status: 503,
        error: 'temporarily_unavailable',
        description: 'The authorization server cannot reach its database. Try again shortly.',
      };
    case 'bug':
      return SERVER_ERROR;
  }
}

/**
 * The JSON error answer of the token and revocation endpoints (RFC 6749 §5.2, RFC 7009 §2.2.1),
 * mounted on their own routers so they never fall through to an HTML page.
 * - `no-store` on errors too (P-04).
 * - `WWW-Authenticate: Basic` on `invalid_client` only when the client used the Basic header
 *   (RFC 6749 §5.2, CA-03, TK-11); body credentials get a bare 401 like node-oidc-provider's.
 * - Descriptions are fixed strings from the code, never the input (AC-10); one that is not
 *   in the RFC charset is dropped rather than sent.
 * - Expected 4xx are logged at info with the code only; anything else at error with the stack.
 *   Neither includes the body, the query or the Authorization header (D-2, RF-04).
 */
export function oauthErrorHandler(deps: AuthDeps): ErrorRequestHandler {
  return (err: unknown, req, res, next) => {
    if (res.headersSent) {
      next(err);
      return;
    }
    const failure = classify(err);
    const path = req.path;
    if (failure.status >= 500) {
      deps.logger.error({ err, method: req.method, path, status: failure.status }, 'oauth request failed');
    } else {
      deps.logger.info(
        { method: req.method, path, status: failure.status, error: failure.error },
        'oauth request rejected',
      );
    }
    setNoStore(res);
    if (failure.status === 401 && credentialsOf(res)?.method === 'client_secret_basic') {
      res.setHeader('WWW-Authenticate', 'Basic realm="latchkey"');
    }
    if (failure.status === 503) res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
    const body: Record<string, string> = { error: failure.error };
    if (SAFE_DESCRIPTION.test(failure.description)) body.error_description = failure.description;
    res.status(failure.status).json(body);
  };
}
