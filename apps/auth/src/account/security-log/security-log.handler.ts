import type { Request, Response } from 'express';
import { isSecurityEventType, SECURITY_LOG_PAGE_SIZE, type SecurityLogJson } from '@latchkey/contracts';
import { listSecurityEvents, presentSecurityEvent, ValidationFailed } from '@latchkey/core';
import type { AuthDeps } from '../../deps.ts';
import { principalOf } from '../require-portal-token.middleware.ts';

const MAX_PAGE = 100;
/** A cursor is an event id: `evt_` and base36/base62 characters. */
const CURSOR = /^evt_[0-9A-Za-z]{1,40}$/;

function single(value: unknown, field: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new ValidationFailed(field, `Give ${field} once.`);
  return value;
}

/**
 * GET /account/security-log (AU-05): the signed-in user's events, newest first, a page at a time.
 * `type` filters by one event type, `before` (the answer's `next`) pages on, `limit` is 1 to 100.
 * A bad parameter is 400 naming it; only the user's own log is ever read.
 */
export function securityLogHandler(deps: AuthDeps) {
  return async function listSecurityLog(req: Request, res: Response): Promise<void> {
    const type = single(req.query.type, 'type');
    if (type !== undefined && !isSecurityEventType(type)) {
      throw new ValidationFailed('type', 'Unknown event type.');
    }
    const before = single(req.query.before, 'before');
    if (before !== undefined && !CURSOR.test(before)) throw new ValidationFailed('before', 'Unknown page cursor.');
    const limitText = single(req.query.limit, 'limit');
    const limit = limitText === undefined ? SECURITY_LOG_PAGE_SIZE : Number(limitText);
    if (!(Number.isInteger(limit) && limit >= 1 && limit <= MAX_PAGE)) {
      throw new ValidationFailed('limit', `limit must be a whole number from 1 to ${MAX_PAGE}.`);
    }
    // One more than the page, to know whether another follows.
    const rows = await listSecurityEvents(deps.db, {
      userId: principalOf(res).userId,
      type,
      before,
      limit: limit + 1,
    });
    const page = rows.slice(0, limit);
    const body: SecurityLogJson = {
      events: page.map(presentSecurityEvent),
      next: rows.length > limit ? page[page.length - 1]!.id : null,
    };
    res.json(body);
  };
}
