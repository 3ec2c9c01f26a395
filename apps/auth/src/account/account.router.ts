import { Router } from 'express';
import type { AuthDeps } from '../deps.ts';

/** the portal's account endpoints (DESIGN.md D8). */
export function accountRouter(deps: AuthDeps): Router {
  const router = Router();
  void deps;
  return router;
}
