import type { Request, Response } from 'express';
import type { AuditActor } from '@latchkey/core';
import { originOf } from '../http/request-origin.ts';
import { principalOf } from './require-portal-token.middleware.ts';

/**
 * AU-04: the browser's address as the portal's BFF saw it (TRUST_PROXY respected there), on every
 * call it forwards. Believed here because every account call carries the portal's own token
 * (SC-08: the only token with the `account` scope), which only the BFF holds; a browser's own
 * value never reaches this server through the BFF.
 */
const CLIENT_ADDRESS_HEADER = 'latchkey-client-address';

/**
 * AU-04: the actor of an account call, for the security log: the signed-in user, with the
 * browser's address and User-Agent (which the BFF forwards); the request's own without them.
 */
export function accountActor(req: Request, res: Response): AuditActor {
  const origin = originOf(req);
  const forwarded = req.headers[CLIENT_ADDRESS_HEADER];
  if (typeof forwarded === 'string' && forwarded.length > 0 && forwarded.length <= 64) origin.ip = forwarded;
  return { kind: 'user', userId: principalOf(res).userId, origin };
}
