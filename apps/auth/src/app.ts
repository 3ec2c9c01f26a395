import express from 'express';
import { accountRouter } from './account/account.router.ts';
import type { AuthDeps } from './deps.ts';
import { revokeRouter } from './endpoints/revoke/revoke.router.ts';
import { tokenRouter } from './endpoints/token/token.router.ts';

/** Builds the authorization server. Does no I/O; main.ts and tests listen on it. */
export function createAuthApp(deps: AuthDeps): express.Express {
  const app = express();
  app.use(tokenRouter(deps));
  app.use(revokeRouter(deps));
  app.use(accountRouter(deps));
  return app;
}
