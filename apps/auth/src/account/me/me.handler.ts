import type { Request, Response } from 'express';
import { principalOf } from '../require-portal-token.middleware.ts';
import { presentMe } from './me.presenter.ts';

/** GET /account/me: the signed-in user, read from the token's own lookup (no second query). */
export function getMe(_req: Request, res: Response): void {
  res.json(presentMe(principalOf(res)));
}
