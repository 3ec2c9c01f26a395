import express, { Router, type ErrorRequestHandler, type Request, type Response } from 'express';
import type { Options } from 'express-rate-limit';
import { MAX_REPORTED_CREDENTIALS } from '@latchkey/contracts';
import { revokeReportedCredentials } from '@latchkey/core';
import { classifyError, inSequence, MethodNotAllowed, RETRY_AFTER_SECONDS, setNoStore } from '@latchkey/http';
import type { AuthDeps } from '../../deps.ts';
import { layeredLimit } from '../../http/rate-limit.ts';

/** LK-01: where anyone may report exposed Latchkey credentials (a secret scanner, a stranger). */
export const CREDENTIALS_REVOKE_PATH = '/credentials/revoke';

/**
 * 1,000 values of 40 characters, quoted and separated, are about 43 kB; more is refused unread
 * with 413 (LK-04), as is a list of more than MAX_REPORTED_CREDENTIALS values.
 */
const BODY_LIMIT = '64kb';

interface Refusal {
  status: number;
  error: string;
  description: string;
}

function refuse(res: Response, refusal: Refusal): void {
  setNoStore(res);
  res.status(refusal.status).json({ error: refusal.error, error_description: refusal.description });
}

const SHAPE: Refusal = {
  status: 400,
  error: 'invalid_request',
  description: 'Send a JSON object {"credentials": [...]} with 1 to 1000 strings.',
};
const TOO_MANY: Refusal = {
  status: 413,
  error: 'invalid_request',
  description: `Report at most ${MAX_REPORTED_CREDENTIALS} credentials in one request.`,
};

/** The values of a well-shaped report, or the refusal of a badly shaped one. */
function readReport(body: unknown): string[] | Refusal {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return SHAPE;
  const credentials = (body as { credentials?: unknown }).credentials;
  if (!Array.isArray(credentials) || credentials.length === 0) return SHAPE;
  if (credentials.length > MAX_REPORTED_CREDENTIALS) return TOO_MANY;
  if (!credentials.every((value) => typeof value === 'string')) return SHAPE;
  return credentials as string[];
}

const tooManyReports: Options['handler'] = (_req, res) =>
  refuse(res, {
    status: 429,
    error: 'too_many_requests',
    description: 'Too many reports from this address. Wait a minute and send the rest in one request.',
  });

/**
 * POST /credentials/revoke (LK-01..LK-06): no authentication; JSON `{"credentials": [...]}`.
 * Every live Latchkey credential among the values is revoked at once (core's
 * revokeReportedCredentials). The answer is always 202 `{"received": N}`, N the number of values
 * sent, whatever they were (live, dead, unknown or malformed: LK-03, no oracle). A body that is
 * not such an object is 400, one over 64 kB or with more than 1,000 values 413 (LK-04), and each
 * address may report RATE_LIMIT_CREDENTIALS_REVOKE_PER_MINUTE times a minute (LK-05). No CORS:
 * scanners call it from servers.
 */
export function credentialsRevokeRouter(deps: AuthDeps): Router {
  const router = Router();
  const limit = layeredLimit(
    {
      identifier: 'credentials-revoke-address',
      windowMs: 60_000,
      limit: deps.config.rateLimit.credentialsRevokePerMinute,
      standardHeaders: 'draft-8',
      legacyHeaders: false,
      handler: tooManyReports,
    },
    deps,
  );
  router.post(
    CREDENTIALS_REVOKE_PATH,
    inSequence(limit),
    (req: Request, res: Response, next) => {
      if (!req.is('application/json')) {
        refuse(res, { status: 415, error: 'invalid_request', description: 'Send the report as application/json.' });
        return;
      }
      next();
    },
    express.json({ limit: BODY_LIMIT, type: 'application/json' }),
    async (req: Request, res: Response) => {
      const values = readReport(req.body);
      if (!Array.isArray(values)) return refuse(res, values);
      await revokeReportedCredentials(deps.db, deps.clock, values, {
        ip: req.ip ?? null,
        userAgent: req.headers['user-agent'] ?? null,
      });
      setNoStore(res);
      res.status(202).json({ received: values.length });
    },
  );
  router.all(CREDENTIALS_REVOKE_PATH, () => {
    throw new MethodNotAllowed('POST');
  });
  router.use(CREDENTIALS_REVOKE_PATH, credentialsRevokeErrors(deps));
  return router;
}

/** The endpoint's error answers: JSON, never a page; an outage 503 with Retry-After (D-10), only a bug 500. */
function credentialsRevokeErrors(deps: AuthDeps): ErrorRequestHandler {
  return (err: unknown, req, res, next) => {
    if (res.headersSent) return next(err);
    const kind = classifyError(err);
    if (kind.kind === 'input') {
      return refuse(res, kind.status === 413 ? { ...TOO_MANY, description: 'The request body is too large.' } : SHAPE);
    }
    if (kind.kind === 'http') {
      if (kind.error instanceof MethodNotAllowed) res.setHeader('Allow', kind.error.allow);
      return refuse(res, { status: kind.error.status, error: 'invalid_request', description: kind.error.description });
    }
    if (kind.kind === 'dependency') {
      res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
      return refuse(res, {
        status: 503,
        error: 'temporarily_unavailable',
        description: 'The authorization server cannot reach its database. Try again shortly.',
      });
    }
    deps.logger.error({ err, method: req.method, path: req.path }, 'credential report failed');
    refuse(res, { status: 500, error: 'server_error', description: 'The report could not be processed.' });
  };
}
