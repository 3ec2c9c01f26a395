import { Router, type Request, type RequestHandler } from 'express';
import type { Config } from '@latchkey/config';
import { MethodNotAllowed, NotFound } from '../http/bff.errors.ts';
import { requireSignIn, type SessionTokens } from '../session/session-tokens.ts';
import { forwardTo, rawBody } from './forward.handler.ts';
import type { CallUpstream } from './upstream.ts';

/** Client and token ids: a prefix and base62 (core/ids.ts); nothing that could change the path. */
const ID = /^[A-Za-z0-9_-]{1,64}$/;

function idOf(req: Request): string {
  const id = req.params.id;
  if (typeof id !== 'string' || !ID.test(id)) throw new NotFound('No such endpoint.');
  return id;
}

function allowOnly(allow: string): RequestHandler {
  return () => {
    throw new MethodNotAllowed(allow);
  };
}

export interface AccountProxyDeps {
  config: Config;
  tokens: SessionTokens;
  upstream: CallUpstream;
  session: RequestHandler;
  portalRequest: RequestHandler[];
}

/**
 * /bff/api/* → the authorization server's /account/* (DESIGN.md D8), route by route: each
 * path here maps to one fixed upstream path, and anything else is 404 (BF-PX-01).
 */
export function accountProxyRouter(deps: AccountProxyDeps): Router {
  const router = Router();
  const base = `${deps.config.auth.url}/account`;
  const forward = (target: (req: Request) => string) =>
    forwardTo(deps.tokens, deps.upstream, 'authorization server', (req) => `${base}${target(req)}`);
  const read = [...deps.portalRequest, deps.session, requireSignIn];
  const write = [...deps.portalRequest, deps.session, requireSignIn, rawBody];

  router.get(
    '/bff/api/me',
    ...read,
    forward(() => '/me'),
  );
  router.all('/bff/api/me', allowOnly('GET, HEAD'));

  router.get(
    '/bff/api/clients',
    ...read,
    forward(() => '/clients'),
  );
  router.post(
    '/bff/api/clients',
    ...write,
    forward(() => '/clients'),
  );
  router.all('/bff/api/clients', allowOnly('GET, HEAD, POST'));
  router.post(
    '/bff/api/clients/:id/revoke',
    ...write,
    forward((req) => `/clients/${idOf(req)}/revoke`),
  );
  router.all('/bff/api/clients/:id/revoke', allowOnly('POST'));

  router.get(
    '/bff/api/tokens',
    ...read,
    forward(() => '/tokens'),
  );
  router.post(
    '/bff/api/tokens',
    ...write,
    forward(() => '/tokens'),
  );
  router.all('/bff/api/tokens', allowOnly('GET, HEAD, POST'));
  router.post(
    '/bff/api/tokens/:id/revoke',
    ...write,
    forward((req) => `/tokens/${idOf(req)}/revoke`),
  );
  router.all('/bff/api/tokens/:id/revoke', allowOnly('POST'));
  return router;
}
