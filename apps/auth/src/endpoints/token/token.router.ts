import { Router } from 'express';
import type { AuthDeps } from '../../deps.ts';

/** POST /oauth/token (RFC 6749 §3.2). */
export function tokenRouter(deps: AuthDeps): Router {
  const router = Router();
  void deps;
  return router;
}
