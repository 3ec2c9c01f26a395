import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import type { Logger } from '@latchkey/logging';
import { classifyError, RETRY_AFTER_SECONDS } from '@latchkey/http';
import { PageError } from './page-error.ts';
import { sendPage } from './send-page.ts';
import { errorPage } from './views/error-page.view.ts';

/** Machine clients (token, revocation, account, metadata) get JSON; browsers get a page. */
const JSON_PATHS = /^\/(?:oauth\/token|oauth\/revoke|oauth\/userinfo|account|\.well-known)(?:\/|$)/;

export function prefersJson(req: Request): boolean {
  return JSON_PATHS.test(req.path) || req.accepts(['html', 'json']) === 'json';
}

interface Failure {
  status: number;
  error: string;
  title: string;
  detail: string;
  advice?: string | undefined;
}

const SERVER_ERROR: Failure = {
  status: 500,
  error: 'server_error',
  title: 'Something went wrong',
  detail: 'An unexpected error occurred on our side. Please try again.',
};

/** The runtime's classification as a page; the pages' own PageError first (it carries a status too). */
function classify(err: unknown): Failure {
  if (err instanceof PageError) {
    return {
      status: err.status,
      error: err.status === 403 ? 'forbidden' : 'invalid_request',
      title: err.title,
      detail: err.detail,
      advice: err.advice,
    };
  }
  const kind = classifyError(err);
  switch (kind.kind) {
    case 'input':
      // A form that could not be read (HD-02): too large, in an encoding not read here, or not what it claims.
      return {
        status: kind.status,
        error: 'invalid_request',
        title: kind.status === 413 ? 'Request too large' : 'Bad request',
        detail: kind.status === 413 ? 'The form you sent was too large.' : 'The form you sent could not be read.',
      };
    case 'dependency':
      return {
        status: 503,
        error: 'temporarily_unavailable',
        title: 'Latchkey is temporarily unavailable',
        detail: 'We could not reach our database. Please try again in a few seconds.',
      };
    case 'http':
      return { status: kind.error.status, error: kind.error.code, title: 'Request refused', detail: kind.error.description };
    // A rule of core that no page handler answered is a bug of the page, like any other.
    case 'domain':
    case 'bug':
      return SERVER_ERROR;
  }
}

function send(req: Request, res: Response, failure: Failure): void {
  if (failure.status === 503) res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
  if (prefersJson(req)) {
    res.status(failure.status).json({ error: failure.error, error_description: failure.detail });
    return;
  }
  sendPage(
    res,
    failure.status,
    errorPage({
      title: failure.title,
      detail: failure.detail,
      advice: failure.advice,
      badge: `Error ${failure.status}`,
    }),
  );
}

/**
 * The one place errors become responses. Expected 4xx are logged at info
 * without the error object (a body-parser error can hold the raw body); everything else at
 * error with the stack, which never reaches the response. Routers with their own JSON error
 * middleware have answered before this runs; a response already under way is left to
 * Express, which closes the connection.
 */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, next) => {
    const path = req.path;
    if (res.headersSent) {
      logger.error({ err, method: req.method, path }, 'error after the response started');
      next(err);
      return;
    }
    const failure = classify(err);
    if (failure.status >= 500) {
      // No session cookie and no second save attempt on a failed request (express-session
      // skips both when req.session is gone).
      (req as { session?: unknown }).session = undefined;
      logger.error({ err, method: req.method, path, status: failure.status }, 'request failed');
    } else {
      logger.info(
        { method: req.method, path, status: failure.status, reason: err instanceof Error ? err.name : 'unknown' },
        'request rejected',
      );
    }
    send(req, res, failure);
  };
}

export const notFoundHandler: RequestHandler = (req, res) => {
  if (prefersJson(req)) {
    res.status(404).json({ error: 'not_found', error_description: 'No such endpoint.' });
    return;
  }
  sendPage(
    res,
    404,
    errorPage({ title: 'Page not found', detail: 'There is nothing at this address.', badge: 'Error 404' }),
  );
};
