import { Router } from 'express';
import type { AuthDeps } from '../deps.ts';
import { accountErrorHandler } from './account-error.handler.ts';
import { MethodNotAllowed, NotFound, noStore } from '@latchkey/runtime';
import { clientsHandlers } from './clients/clients.handler.ts';
import { jsonBody } from './json-body.middleware.ts';
import { getMe } from './me/me.handler.ts';
import { requirePortalToken } from './require-portal-token.middleware.ts';
import { applicationsHandlers } from './applications/applications.handler.ts';
import { tokensHandlers } from './tokens/tokens.handler.ts';

function allowOnly(allow: string) {
  return function methodNotAllowed(): never {
    throw new MethodNotAllowed(allow);
  };
}

function unknownAccountRoute(): never {
  throw new NotFound('No such account endpoint.');
}

/**
 * The portal's account endpoints (DD-8). Mounted at the application root, so every
 * path is spelled out and nothing here touches requests outside `/account`. Per request:
 * no-store → portal token (401/403) → JSON body (415/413/400, creates and edits only) → handler.
 */
export function accountRouter(deps: AuthDeps): Router {
  const router = Router();
  const auth = requirePortalToken(deps);
  const clients = clientsHandlers(deps);
  const tokens = tokensHandlers(deps);
  const applications = applicationsHandlers(deps);

  // Credentials and account data are never cached, answers and errors alike (TS-04, P-04).
  router.use('/account', noStore);

  router.get('/account/me', auth, getMe);
  router.all('/account/me', allowOnly('GET, HEAD'));

  router.get('/account/clients', auth, clients.listClients);
  router.post('/account/clients', auth, ...jsonBody, clients.createClient);
  router.all('/account/clients', allowOnly('GET, HEAD, POST'));
  router.get('/account/clients/:id', auth, clients.getClient);
  router.patch('/account/clients/:id', auth, ...jsonBody, clients.updateClient);
  router.all('/account/clients/:id', allowOnly('GET, HEAD, PATCH'));
  router.post('/account/clients/:id/revoke', auth, clients.revokeClient);
  router.all('/account/clients/:id/revoke', allowOnly('POST'));

  router.get('/account/tokens', auth, tokens.listTokens);
  router.post('/account/tokens', auth, ...jsonBody, tokens.createToken);
  router.all('/account/tokens', allowOnly('GET, HEAD, POST'));
  router.post('/account/tokens/:id/revoke', auth, tokens.revokeToken);
  router.all('/account/tokens/:id/revoke', allowOnly('POST'));

  router.get('/account/applications', auth, applications.listApplications);
  router.all('/account/applications', allowOnly('GET, HEAD'));
  router.post('/account/applications/:id/revoke', auth, applications.revokeApplication);
  router.all('/account/applications/:id/revoke', allowOnly('POST'));

  router.use('/account', unknownAccountRoute);
  router.use('/account', accountErrorHandler(deps.logger));
  return router;
}
