import { Router, type Request, type Response } from 'express';
import { MethodNotAllowed, noStore } from '@latchkey/http';
import { accountErrorHandler } from '../../account/account-error.handler.ts';
import { principalOf, requireAccessToken } from '../../account/require-portal-token.middleware.ts';
import type { AuthDeps } from '../../deps.ts';

export const USERINFO_PATH = '/oauth/userinfo';

/**
 * What a client learns of the user: `sub` is the user's id, stable and never the email (CL-02),
 * always sent (OpenID Connect Core §5.3.2). The rest only as the token's scopes allow (SC-09,
 * OI-12, Core §5.4): `name` with `profile`, `email` and `email_verified` with `email`, the same
 * claims as the ID token. `email_verified` is false: addresses are not verified yet.
 */
function sendUserinfo(_req: Request, res: Response): void {
  const { userId, userName, userEmail, scopes } = principalOf(res);
  res.json({
    sub: userId,
    ...(scopes.includes('profile') && { name: userName }),
    ...(scopes.includes('email') && { email: userEmail, email_verified: false }),
  });
}

/**
 * GET and POST /oauth/userinfo (OpenID Connect Core §5.3, as the libraries that sign users in
 * expect: Auth.js (CL-07), next-auth (CL-09), passport strategies (CL-06)). Any live access token of the user, an OAuth
 * token or a PAT, in the Authorization header (RFC 6750 §2.1); otherwise 401 with the RFC 6750
 * challenge, 400 for a malformed header, 503 when the token cannot be checked (D-10).
 */
export function userinfoRouter(deps: AuthDeps): Router {
  const router = Router();
  const auth = requireAccessToken(deps, 'Send an access token in the Authorization header.');
  router.use(USERINFO_PATH, noStore);
  router.get(USERINFO_PATH, auth, sendUserinfo);
  router.post(USERINFO_PATH, auth, sendUserinfo);
  router.all(USERINFO_PATH, () => {
    throw new MethodNotAllowed('GET, HEAD, POST');
  });
  router.use(USERINFO_PATH, accountErrorHandler(deps.logger, 'userinfo'));
  return router;
}
