import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from '@latchkey/logging';
import { NotFound } from '@latchkey/core';
import { classifyError, MethodNotAllowed, RETRY_AFTER_SECONDS } from '@latchkey/http';
import { SessionEnded } from './bff.errors.ts';
import { sendNotice } from './notice-page.ts';

/** Top-level browser navigations get a page; the SPA's fetches get JSON. */
const PAGE_ROUTES = /^\/bff\/(?:login|callback)\/?$/i;

interface Failure {
  status: number;
  code: string;
  description: string;
}

const BODY_FAILURE = {
  400: { code: 'invalid_request', description: 'The request could not be read.' },
  413: { code: 'payload_too_large', description: 'The request body is too large.' },
  415: { code: 'unsupported_media_type', description: 'Send UTF-8 application/json.' },
} as const;

/** The runtime's classification in the portal's JSON terms (each error class carries its status). */
function classify(err: unknown): Failure {
  const kind = classifyError(err);
  switch (kind.kind) {
    // The BFF calls no rule of core: the one domain error it meets is its own NotFound.
    case 'domain':
    case 'http':
      return { status: kind.error.status, code: kind.error.code, description: kind.error.description };
    case 'input':
      // A body that could not be read (HD-02): too large, an encoding or charset not read here, or malformed.
      return { status: kind.status, ...BODY_FAILURE[kind.status] };
    case 'dependency':
      // The session store (database or Redis) failed: BF-RD-01, 503 and never a 401. Upstream
      // failures are HttpErrors already (upstream_unavailable, upstream_timeout).
      return {
        status: 503,
        code: 'temporarily_unavailable',
        description: 'The portal is temporarily unavailable. Try again in a few seconds.',
      };
    case 'bug':
      return { status: 500, code: 'server_error', description: 'An unexpected error occurred. Try again.' };
  }
}

/** The path of a request, without its query string (which may hold a code or state). */
export function pathOf(req: IncomingMessage): string {
  const url = req.url ?? '/';
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/** A JSON answer on a plain node:http response (Express's is one too). */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}

function send(req: IncomingMessage, res: ServerResponse, failure: Failure): void {
  if (failure.status === 503) res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
  if (PAGE_ROUTES.test(pathOf(req))) {
    const signInAgain = { href: '/bff/login', label: 'Sign in again' };
    sendNotice(res, failure.status, {
      title: failure.status >= 500 ? 'Sign-in is temporarily unavailable' : 'Sign-in could not be completed',
      detail: failure.description,
      action: signInAgain,
    });
    return;
  }
  sendJson(res, failure.status, { error: failure.code, error_description: failure.description });
}

export type ErrorResponder = (req: IncomingMessage, res: ServerResponse, err: unknown) => void;

/**
 * The one place errors become responses, for the Express app and the
 * /bff/graphql fast path alike. Expected 4xx are logged at info without the error object;
 * anything else at error with the stack, which never reaches the response. A session whose
 * grant died has its cookie cleared (BF-RT-02; the session row is already deleted).
 */
export function errorResponder(logger: Logger, clearSessionCookie: (res: ServerResponse) => void): ErrorResponder {
  return (req, res, err) => {
    const failure = classify(err);
    const method = req.method;
    const path = pathOf(req);
    if (err instanceof MethodNotAllowed) res.setHeader('Allow', err.allow);
    if (failure.status >= 500) {
      // An upstream or the database failed: operators need the cause (never a token: the
      // errors carry OAuth error bodies, socket errors and SQLite messages).
      logger.error({ err, method, path, status: failure.status }, 'request failed');
    } else {
      logger.info({ method, path, status: failure.status, reason: failure.code }, 'request rejected');
    }
    if (err instanceof SessionEnded) clearSessionCookie(res);
    send(req, res, failure);
  };
}

/** The Express app's error handler: errorResponder, once express-session is kept out of it. */
export function errorHandler(respond: ErrorResponder, logger: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, next) => {
    if (res.headersSent) {
      logger.error({ err, method: req.method, path: req.path }, 'error after the response started');
      next(err);
      return;
    }
    if (err instanceof SessionEnded || classify(err).status >= 500) {
      // No session cookie and no end-of-request save on a failed request: express-session
      // skips both when req.session is gone.
      (req as { session?: unknown }).session = undefined;
    }
    respond(req, res, err);
  };
}

export const notFound: RequestHandler = () => {
  throw new NotFound('No such endpoint.');
};
