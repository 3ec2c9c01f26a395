import type { ErrorRequestHandler, Response } from 'express';
import { InvalidToken, ValidationFailed, type DomainError } from '@latchkey/core';
import type { Logger } from '@latchkey/logging';
import { classifyError, MethodNotAllowed, RETRY_AFTER_SECONDS } from '@latchkey/http';
import { InsufficientScope, MalformedAuthorization, MissingToken } from './account.errors.ts';

function send(res: Response, status: number, body: Record<string, string>): void {
  res.status(status).set('Cache-Control', 'no-store').set('Pragma', 'no-cache').json(body);
}

/** A body that could not be read, or Express's own refusal (a bad %-escape in a path parameter): HD-02. */
const BODY_FAILURE = {
  400: { code: 'invalid_request', description: 'The request could not be read: the body must be UTF-8 JSON.' },
  413: { code: 'payload_too_large', description: 'The request body is too large.' },
  415: { code: 'unsupported_media_type', description: 'Send the request body as UTF-8 application/json.' },
} as const;

/**
 * The account endpoints' error handler (and the userinfo endpoint's, with its own realm): every failure is JSON with `Cache-Control: no-store`,
 * bearer failures carry the RFC 6750 §3 challenge, a dependency failure is 503 with
 * Retry-After (D-10), and a bug is 500 `server_error`, logged with its stack, never sent.
 */
export function accountErrorHandler(logger: Logger, realm = 'account'): ErrorRequestHandler {
  const challenge = `Bearer realm="${realm}"`;
  return function handleAccountError(err, _req, res, next) {
    if (res.headersSent) {
      next(err);
      return;
    }
    const kind = classifyError(err);
    switch (kind.kind) {
      case 'http': {
        const error = kind.error;
        if (error instanceof MissingToken) res.set('WWW-Authenticate', challenge);
        if (error instanceof MalformedAuthorization) res.set('WWW-Authenticate', `${challenge}, error="${error.code}"`);
        // SC-08, RFC 6750 §3.1: the challenge names the scope the token lacks.
        if (error instanceof InsufficientScope) {
          res.set('WWW-Authenticate', `${challenge}, error="${error.code}", scope="${error.scope}"`);
        }
        if (error instanceof MethodNotAllowed) res.set('Allow', error.allow);
        send(res, error.status, { error: error.code, error_description: error.description });
        return;
      }
      case 'domain':
        sendDomainError(res, kind.error, challenge);
        return;
      case 'input': {
        const failure = BODY_FAILURE[kind.status];
        send(res, kind.status, { error: failure.code, error_description: failure.description });
        return;
      }
      case 'dependency':
        logger.error({ err }, `${realm} endpoint failed: a dependency is unavailable`);
        res.set('Retry-After', String(RETRY_AFTER_SECONDS));
        send(res, 503, {
          error: 'temporarily_unavailable',
          error_description: 'The service is temporarily unavailable. Try again shortly.',
        });
        return;
      case 'bug':
        logger.error({ err }, `${realm} endpoint failed`);
        send(res, 500, { error: 'server_error', error_description: 'An unexpected error occurred on our side.' });
        return;
    }
  };
}

function sendDomainError(res: Response, error: DomainError, challenge: string): void {
  if (error instanceof InvalidToken) res.set('WWW-Authenticate', `${challenge}, error="invalid_token"`);
  const body: Record<string, string> = { error: error.code, error_description: error.description };
  if (error instanceof ValidationFailed) body.field = error.field;
  send(res, error.status, body);
}
