import { Router } from 'express';
import type { AuthDeps } from '../../deps.ts';

/** POST /oauth/revoke (RFC 7009). */
export function revokeRouter(deps: AuthDeps): Router {
  const router = Router();
  void deps;
  return router;
}
