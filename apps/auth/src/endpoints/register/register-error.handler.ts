import type { ErrorRequestHandler, Response } from 'express';
import { InvalidToken, ValidationFailed, type DomainError } from '@latchkey/core';
import { classifyError, MethodNotAllowed, RETRY_AFTER_SECONDS, setNoStore } from '@latchkey/http';
import type { AuthDeps } from '../../deps.ts';
import {
  MalformedRegistrationAuthorization,
  MissingRegistrationToken,
  RegistrationErrorCode,
} from './register.errors.ts';

/** RFC 6749 §5.2's charset for error_description (AC-10): a description outside it is dropped. */
const SAFE_DESCRIPTION = /^[\x20-\x21\x23-\x5B\x5D-\x7E]*$/;

const CHALLENGE = 'Bearer realm="register"';

/** The fields whose problems are `invalid_redirect_uri` (RFC 7591 §3.2.2); every other one is `invalid_client_metadata`. */
const REDIRECT_FIELDS: ReadonlySet<string> = new Set(['redirect_uris', 'redirect_uri']);

interface Failure {
  status: number;
  error: string;
  description: string;
}

const BODY_DESCRIPTION = {
  400: 'The request body must be a UTF-8 JSON object of client metadata.',
  413: 'The request body is too large.',
  415: 'Send the client metadata as application/json.',
} as const;

/**
 * DR-05: core's refusals in RFC 7591 §3.2.2's terms: a field that fails its rule is
 * `invalid_redirect_uri` (the redirect URLs) or `invalid_client_metadata` (anything else), 400;
 * a bearer token that is unknown, expired, revoked or not this client's is RFC 6750's
 * `invalid_token`, 401 with its challenge (DR-06, DR-13). Any other rule of core here is a bug.
 */
function domainFailure(res: Response, error: DomainError): Failure | undefined {
  if (error instanceof ValidationFailed) {
    const code = REDIRECT_FIELDS.has(error.field)
      ? RegistrationErrorCode.invalidRedirectUri
      : RegistrationErrorCode.invalidClientMetadata;
    return { status: 400, error: code, description: error.description };
  }
  if (error instanceof InvalidToken) {
    res.setHeader('WWW-Authenticate', `${CHALLENGE}, error="invalid_token"`);
    return { status: 401, error: RegistrationErrorCode.invalidToken, description: error.description };
  }
  return undefined;
}

const SERVER_ERROR: Failure = {
  status: 500,
  error: 'server_error',
  description: 'The authorization server encountered an unexpected error.',
};

/**
 * The registration endpoints' one error answer: JSON `{error, error_description}` with no-store
 * (RFC 7591 §3.2.2, RFC 7592 §2), never a page and never a 500 for bad input (DR-05): a body that
 * cannot be read is `invalid_client_metadata` with its status (400, 413, 415); an outage is 503
 * with Retry-After (D-10); only a bug is 500, logged with its stack. Descriptions come from the
 * code, never echo the input, and one outside RFC 6749's charset is dropped.
 */
export function registerErrorHandler(deps: AuthDeps): ErrorRequestHandler {
  return function handleRegistrationError(err: unknown, req, res, next) {
    if (res.headersSent) {
      next(err);
      return;
    }
    const kind = classifyError(err);
    let failure: Failure = SERVER_ERROR;
    switch (kind.kind) {
      case 'domain':
        failure = domainFailure(res, kind.error) ?? SERVER_ERROR;
        break;
      case 'http': {
        const error = kind.error;
        if (error instanceof MissingRegistrationToken) res.setHeader('WWW-Authenticate', CHALLENGE);
        if (error instanceof MalformedRegistrationAuthorization) {
          res.setHeader('WWW-Authenticate', `${CHALLENGE}, error="invalid_request"`);
        }
        if (error instanceof MethodNotAllowed) res.setHeader('Allow', error.allow);
        const code = error instanceof MethodNotAllowed ? RegistrationErrorCode.invalidRequest : error.code;
        failure = { status: error.status, error: code, description: error.description };
        break;
      }
      case 'input':
        failure = {
          status: kind.status,
          error: RegistrationErrorCode.invalidClientMetadata,
          description: BODY_DESCRIPTION[kind.status],
        };
        break;
      case 'dependency':
        res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
        failure = {
          status: 503,
          error: 'temporarily_unavailable',
          description: 'The authorization server cannot reach its database. Try again shortly.',
        };
        break;
      case 'bug':
        break;
    }
    if (failure.status >= 500) {
      deps.logger.error({ err, method: req.method, path: req.path, status: failure.status }, 'registration failed');
    } else {
      deps.logger.info(
        { method: req.method, path: req.path, status: failure.status, error: failure.error },
        'registration request rejected',
      );
    }
    setNoStore(res);
    const body: Record<string, string> = { error: failure.error };
    // Core's messages quote names ("Latchkey"); RFC 6749's charset has no double quote.
    const description = failure.description.replaceAll('"', "'");
    if (SAFE_DESCRIPTION.test(description)) body.error_description = description;
    res.status(failure.status).json(body);
  };
}
