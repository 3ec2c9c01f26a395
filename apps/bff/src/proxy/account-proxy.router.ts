import { Router, type Request, type RequestHandler } from 'express';
import type { Config } from '@latchkey/config';
import { ACCOUNT_BASE, ACCOUNT_ROUTES, BFF_ACCOUNT_BASE, allowedMethods, queryOf } from '@latchkey/contracts';
import { NotFound } from '@latchkey/core';
import { MethodNotAllowed } from '@latchkey/http';
import { requireSignIn, type SessionTokens } from '../session/session-tokens.ts';
import { forwardTo, rawBody } from './forward.handler.ts';
import type { CallUpstream } from './upstream.ts';

/** Client, secret and token ids: a prefix and base62 (core/ids.ts); nothing that could change the path. */
const ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * CM-16: an application known by its client ID metadata document has that document's https URL
 * as its client id, so Revoke access names it. Only there, bounded as the authorization server
 * bounds such ids (1024), printable ASCII, and sent upstream percent-encoded as one path segment.
 */
const METADATA_DOCUMENT_ID = /^https:\/\/[\x21-\x7e]{1,1016}$/;
const APPLICATION_ID_ROUTE = '/applications/:id/revoke';

/** A path parameter (`:id`, `:secretId`), only when it is a well-formed id; encoded for the upstream path. */
function paramOf(req: Request, name: string, path: string): string {
  const id = req.params[name];
  const wellFormed =
    typeof id === 'string' && (ID.test(id) || (path === APPLICATION_ID_ROUTE && METADATA_DOCUMENT_ID.test(id)));
  if (!wellFormed) throw new NotFound('No such endpoint.');
  return encodeURIComponent(id);
}

/**
 * The query parameters the route takes (the table's `query`), each once and as text, encoded
 * again: the upstream sees no other parameter, and none can change its path (BF-PX-01).
 */
function queryString(req: Request, names: readonly string[]): string {
  const params = new URLSearchParams();
  for (const name of names) {
    const value = req.query[name];
    if (typeof value === 'string') params.set(name, value);
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
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
 * /bff/api/* → the authorization server's /account/* (DD-8), built from the one route
 * table of packages/contracts: each path maps to one fixed upstream path (each parameter, `:id`
 * or `:secretId`, only when it is a well-formed id), each method the table names is forwarded,
 * any other is 405, and anything else is 404 (BF-PX-01).
 */
export function accountProxyRouter(deps: AccountProxyDeps): Router {
  const router = Router();
  const base = `${deps.config.auth.url}${ACCOUNT_BASE}`;
  const chains = {
    GET: [...deps.portalRequest, deps.session, requireSignIn],
    POST: [...deps.portalRequest, deps.session, requireSignIn, rawBody],
    PATCH: [...deps.portalRequest, deps.session, requireSignIn, rawBody],
  };
  for (const route of ACCOUNT_ROUTES) {
    const query = queryOf(route);
    const target = (req: Request) =>
      `${base}${route.path.replace(/:(\w+)/g, (_, name: string) => paramOf(req, name, route.path))}${queryString(req, query)}`;
    const forward = forwardTo(deps.tokens, deps.upstream, 'authorization server', target);
    const methods = Object.keys(route.answers) as Array<keyof typeof chains>;
    for (const method of methods) {
      const chain = [...chains[method], forward];
      if (method === 'GET') router.get(`${BFF_ACCOUNT_BASE}${route.path}`, ...chain);
      else if (method === 'PATCH') router.patch(`${BFF_ACCOUNT_BASE}${route.path}`, ...chain);
      else router.post(`${BFF_ACCOUNT_BASE}${route.path}`, ...chain);
    }
    router.all(`${BFF_ACCOUNT_BASE}${route.path}`, allowOnly(allowedMethods(route)));
  }
  return router;
}
