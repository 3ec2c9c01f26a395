import type { RequestHandler } from 'express';
import * as oidc from 'openid-client';
import { redirectTo } from '../http/redirect.ts';
import type { LoginTransactions } from './login-transaction.ts';
import type { PortalOidcClient } from './oidc-client.ts';
import { safeReturnPath } from './return-to.ts';

/**
 * GET /bff/login?returnTo=/path[&prompt=login]: starts the authorization code flow (RFC 6749 §4.1.1) with a
 * one-time `state` (RFC 9700 §4.7) and a PKCE S256 challenge (RFC 7636, RFC 9700 §2.1.1). The
 * state, the verifier and the return path go in the login transaction, sealed into the
 * browser's transaction cookie (HD-15): nothing is stored for a sign-in that is only started,
 * and the browser can neither read the verifier nor change any of it.
 */
export function startSignIn(
  client: PortalOidcClient,
  transactions: LoginTransactions,
  portalOrigin: string,
): RequestHandler {
  return async (req, res) => {
    const returnTo = safeReturnPath(req.query.returnTo, portalOrigin); // OR-02
    const state = oidc.randomState();
    const codeVerifier = oidc.randomPKCECodeVerifier(); // fresh per transaction (PK-09)
    // Discovery happens here first, so an unreachable server sets no transaction cookie.
    const url = await client.authorizationUrl({
      state,
      codeChallenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      // After an explicit sign-out the portal asks for the password again, even though the
      // authorization server's own session still lives; no other prompt value is passed on.
      ...(req.query.prompt === 'login' ? { prompt: 'login' as const } : {}),
    });
    transactions.start(res, { state, codeVerifier, returnTo, issuer: client.issuer });
    redirectTo(res, url.href);
  };
}
