import express, { Router } from 'express';
import { MethodNotAllowed, noStore } from '@latchkey/http';
import type { AuthDeps } from '../../deps.ts';
import { registerErrorHandler } from './register-error.handler.ts';
import { registerHandlers, requireInitialAccessToken, requireJsonBody } from './register.handler.ts';
import { registerRateLimit } from './register.rate-limit.ts';

/** RFC 7591 §3: where clients register themselves (DYNAMIC_CLIENT_REGISTRATION). */
export const REGISTER_PATH = '/oauth/register';

/**
 * Client metadata is a few fields; at most 10 redirect URLs of at most 2000 characters (CE-02,
 * RU-09) fit well within it. Anything bigger is refused unread with 413.
 */
const BODY_LIMIT = '32kb';

/**
 * POST /oauth/register (RFC 7591), and GET / DELETE {REGISTER_PATH}/{client_id} with the
 * registration access token (RFC 7592). DR-* in docs/rules.md. Nothing is mounted while
 * DYNAMIC_CLIENT_REGISTRATION=off: the path is a 404 like any other unknown one (DR-01).
 * Server to server: no session, no cookies and no CORS (DR-02). The checks of a registration,
 * in order: no-store; the per-address limit (DR-14); in `token` mode the initial access token
 * (DR-06), before the body is read; a JSON body of at most 32 kB (DR-05); then core validates
 * the metadata as the portal's (DR-03) and registers the client (DR-04).
 */
export function registerRouter(deps: AuthDeps): Router {
  const router = Router();
  if (deps.config.dynamicClientRegistration.mode === 'off') return router;
  const handlers = registerHandlers(deps, REGISTER_PATH);
  const clientPath = `${REGISTER_PATH}/:clientId`;

  router.use(REGISTER_PATH, noStore);
  router.post(
    REGISTER_PATH,
    registerRateLimit(deps),
    ...(deps.config.dynamicClientRegistration.mode === 'token' ? [requireInitialAccessToken(deps)] : []),
    requireJsonBody,
    express.json({ limit: BODY_LIMIT, type: 'application/json' }),
    handlers.registerClient,
  );
  router.all(REGISTER_PATH, () => {
    throw new MethodNotAllowed('POST');
  });
  // RFC 7592 §2.1, §2.3: read and delete; §2.2's update is not offered (DR-12).
  router.get(clientPath, handlers.readClient);
  router.delete(clientPath, handlers.deleteClient);
  router.all(clientPath, () => {
    throw new MethodNotAllowed('GET, DELETE');
  });
  router.use(REGISTER_PATH, registerErrorHandler(deps));
  return router;
}
