import type { Request, Response } from 'express';
import type { AuditActor } from '@latchkey/core';
import { originOf } from '../http/request-origin.ts';
import { principalOf } from './require-portal-token.middleware.ts';

/**
 * AU-04: the actor of an account call, for the security log: the signed-in user, from the
 * address and User-Agent the portal's BFF forwards for them.
 */
export function accountActor(req: Request, res: Response): AuditActor {
  return { kind: 'user', userId: principalOf(res).userId, origin: originOf(req) };
}
