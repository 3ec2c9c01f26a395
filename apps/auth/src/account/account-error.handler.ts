import type { ErrorRequestHandler, Response } from 'express';
import { DomainError, InvalidToken, ValidationFailed } from '@latchkey/core';
import type { Logger } from '@latchkey/logging';
import { bodyReadError } from '@latchkey/runtime';
import {
  AccountHttpError,
  InsufficientScope,
  MalformedAuthorization,
  MethodNotAllowed,
  MissingToken,
} from './account.errors.ts';

const REALM = 'Bearer realm="account"';
const RETRY_AFTER_SECONDS = '5';

const DOMAIN_STATUS: Partial<Record<DomainError['code'], number>> = {
  invalid_token: 401,
  not_found: 404,
  conflict: 409,
};

function send(res: Response, status: number, body: Record<string, string>): void {
  res.status(status).set('Cache-Control', 'no-store').set('Pragma', 'no-cache').json(body);
}

/** A body that could not be read, or Express's own refusal (a bad %-escape in a path parameter): HD-02's one classifier. */
function libraryClientError(err: unknown): { status: number; code: string; description: string } | undefined {
  const failure = bodyReadError(err);
  if (!failure) return undefined;
  if (failure.status === 413) return { status: 413, code: 'payload_too_large', description: 'The request body is too large.' };
  if (failure.status === 415) {
    return { status: 415, code: 'unsupported_media_type', description: 'Send the request body as UTF-8 application/json.' };
  }
  return { status: 400, code: 'invalid_request', description: 'The request could not be read: the body must be UTF-8 JSON.' };
}

/**
 * The account endpoints' error handler: every failure is JSON with `Cache-Control: no-store`,
 * bearer failures carry the RFC 6750 §3 challenge, and anything unexpected (a database
 * failure) is 503 with Retry-After, never 500 and never a stack trace (D-10).
 */
export function accountErrorHandler(logger: Logger): ErrorRequestHandler {
  return function handleAccountError(err, _req, res, next) {
    if (res.headersSent) {
      next(err);
      return;
    }
    if (err instanceof AccountHttpError) {
      if (err instanceof MissingToken) res.set('WWW-Authenticate', REALM);
      if (err instanceof MalformedAuthorization || err instanceof InsufficientScope) {
        res.set('WWW-Authenticate', `${REALM}, error="${err.code}"`);
      }
      if (err instanceof MethodNotAllowed) res.set('Allow', err.allow);
      send(res, err.status, { error: err.code, error_description: err.description });
      return;
    }
    if (err instanceof DomainError) {
      if (err instanceof InvalidToken) res.set('WWW-Authenticate', `${REALM}, error="invalid_token"`);
      const body: Record<string, string> = { error: err.code, error_description: err.description };
      if (err instanceof ValidationFailed) body.field = err.field;
      send(res, DOMAIN_STATUS[err.code] ?? 400, body);
      return;
    }
    const parserError = libraryClientError(err);
    if (parserError) {
      send(res, parserError.status, { error: parserError.code, error_description: parserError.description });
      return;
    }
    logger.error({ err }, 'account endpoint failed');
    res.set('Retry-After', RETRY_AFTER_SECONDS);
    send(res, 503, {
      error: 'temporarily_unavailable',
      error_description: 'The service is temporarily unavailable. Try again shortly.',
    });
  };
}
