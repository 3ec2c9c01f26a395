import { Router } from 'express';
import type { AuthDeps } from '../../deps.ts';

/** RFC 7591 §3: where clients register themselves (DYNAMIC_CLIENT_REGISTRATION). */
export const REGISTER_PATH = '/oauth/register';

/**
 * POST /oauth/register (RFC 7591), and GET / DELETE {REGISTER_PATH}/{client_id} with the
 * registration access token (RFC 7592). DR-* in docs/rules.md. Nothing is mounted while
 * DYNAMIC_CLIENT_REGISTRATION=off: the path is a 404 like any other unknown one.
 */
export function registerRouter(deps: AuthDeps): Router {
  const router = Router();
  if (deps.config.dynamicClientRegistration.mode === 'off') return router;
  return router;
}
