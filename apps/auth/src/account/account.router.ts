import { Router, type RequestHandler } from 'express';
import {
  ACCOUNT_BASE,
  ACCOUNT_ROUTES,
  allowedMethods,
  type AccountMethod,
  type AccountPath,
} from '@latchkey/contracts';
import type { AuthDeps } from '../deps.ts';
import { accountErrorHandler } from './account-error.handler.ts';
import { NotFound } from '@latchkey/core';
import { MethodNotAllowed, noStore } from '@latchkey/http';
import { clientSecretsHandlers } from './clients/client-secrets.handler.ts';
import { clientsHandlers } from './clients/clients.handler.ts';
import { jsonBody, optionalJsonBody } from './json-body.middleware.ts';
import { getMe } from './me/me.handler.ts';
import { requirePortalToken } from './require-portal-token.middleware.ts';
import { applicationsHandlers } from './applications/applications.handler.ts';
import { securityLogHandler } from './security-log/security-log.handler.ts';
import { tokensHandlers } from './tokens/tokens.handler.ts';

/**
 * The handlers of every route of the account table (packages/contracts ACCOUNT_ROUTES), each
 * method's chain after the portal token check. The type is the table's: a route or a method
 * the table names and this map lacks, or one it has that the table does not, fails to compile.
 */
type AccountHandlers = { [P in AccountPath]: { [M in AccountMethod<P>]: RequestHandler[] } };

function allowOnly(allow: string) {
  return function methodNotAllowed(): never {
    throw new MethodNotAllowed(allow);
  };
}

function unknownAccountRoute(): never {
  throw new NotFound('No such account endpoint.');
}

/**
 * The portal's account endpoints (DD-8), built from the one route table. Mounted at the
 * application root, so every path is spelled out and nothing here touches requests outside
 * `/account`. Per request: no-store → portal token (401/403) → JSON body (415/413/400, creates
 * and edits only) → handler; a method the table does not give the path is 405 with its `Allow`.
 */
export function accountRouter(deps: AuthDeps): Router {
  const router = Router();
  const auth = requirePortalToken(deps);
  const clients = clientsHandlers(deps);
  const secrets = clientSecretsHandlers(deps);
  const tokens = tokensHandlers(deps);
  const applications = applicationsHandlers(deps);
  const handlers: AccountHandlers = {
    '/me': { GET: [getMe] },
    '/clients': { GET: [clients.listClients], POST: [...jsonBody, clients.createClient] },
    '/clients/:id': { GET: [clients.getClient], PATCH: [...jsonBody, clients.updateClient] },
    '/clients/:id/revoke': { POST: [clients.revokeClient] },
    '/clients/:id/secrets': { GET: [secrets.listSecrets], POST: [optionalJsonBody, secrets.createSecret] },
    '/clients/:id/secrets/:secretId/delete': { POST: [secrets.deleteSecret] },
    '/tokens': { GET: [tokens.listTokens], POST: [...jsonBody, tokens.createToken] },
    '/tokens/:id': { PATCH: [...jsonBody, tokens.updateToken] },
    '/tokens/:id/revoke': { POST: [tokens.revokeToken] },
    '/tokens/:id/roll': { POST: [optionalJsonBody, tokens.rollToken] },
    '/applications': { GET: [applications.listApplications] },
    '/applications/:id/revoke': { POST: [applications.revokeApplication] },
    '/security-log': { GET: [securityLogHandler(deps)] },
  };

  // Credentials and account data are never cached, answers and errors alike (TS-04, P-04).
  router.use(ACCOUNT_BASE, noStore);

  for (const route of ACCOUNT_ROUTES) {
    const path = `${ACCOUNT_BASE}${route.path}`;
    const methods: Record<string, RequestHandler[]> = handlers[route.path];
    for (const [method, chain] of Object.entries(methods)) {
      router.route(path)[method.toLowerCase() as 'get' | 'post' | 'patch'](auth, ...chain);
    }
    router.all(path, allowOnly(allowedMethods(route)));
  }

  router.use(ACCOUNT_BASE, unknownAccountRoute);
  router.use(ACCOUNT_BASE, accountErrorHandler(deps.logger));
  return router;
}
