import type { Request, RequestHandler, Response } from 'express';
import { constantTimeEqual } from '@latchkey/credentials';
import type { Config } from '@latchkey/config';
import type { Clock } from '@latchkey/core';
import type { Logger } from '@latchkey/logging';
import { InvalidCallback } from '../http/bff.errors.ts';
import type { CallUpstream } from '../proxy/upstream.ts';
import { regenerateSession, saveSession } from '@latchkey/sessions';
import type { PortalUser } from '../session/portal-session.ts';
import type { SessionTokens } from '../session/session-tokens.ts';
import { redirectTo } from '../http/redirect.ts';
import type { LoginTransactions } from './login-transaction.ts';
import type { IssuedTokens, PortalOidcClient } from './oidc-client.ts';
import { GrantRejected } from './oidc.errors.ts';

/** Where the SPA shows "sign-in failed" (portal contract). */
export const SIGN_IN_FAILED = '/?error=signin_failed';

export interface CallbackDeps {
  config: Config;
  clock: Clock;
  logger: Logger;
  client: PortalOidcClient;
  transactions: LoginTransactions;
  tokens: SessionTokens;
  upstream: CallUpstream;
}

/** A parameter sent exactly once; a repeated one is as good as absent. */
function single(params: URLSearchParams, name: string): string | undefined {
  const values = params.getAll(name);
  return values.length === 1 && values[0] !== '' ? values[0] : undefined;
}

function isPortalUser(value: unknown): value is PortalUser {
  const v = value as Partial<Record<keyof PortalUser, unknown>> | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.id === 'string' &&
    typeof v.name === 'string' &&
    typeof v.email === 'string'
  );
}

/**
 * GET /bff/callback: finishes a sign-in this browser started, checks in order:
 * 1. the login transaction sealed in the Lax cookie opens, has not expired, and is taken (one
 *    use: BF-ST-02, BF-ST-03, HD-15);
 * 2. `state` equals the transaction's (BF-ST-01, RFC 9700 §4.7);
 * 3. `iss` names the expected issuer (RFC 9207, MX-01);
 * the three answer 400 without any call to the token endpoint. Then an error response ends
 * the sign-in (BF-ST-04), the code is exchanged with the PKCE verifier, the user is read,
 * and the session id is regenerated before anything is stored in it (BF-SF-01). The browser
 * is sent on with a 302 and no body, so the code never reaches the SPA (RF-02).
 */
export function completeSignIn(deps: CallbackDeps): RequestHandler {
  const { config, client, transactions, tokens, upstream, logger } = deps;

  async function fetchUser(accessToken: string): Promise<PortalUser> {
    const answer = await upstream({
      url: `${config.auth.url}/account/me`,
      method: 'GET',
      accessToken,
      headers: { accept: 'application/json' },
      body: undefined,
      upstream: 'authorization server',
    });
    const user: unknown = answer.status === 200 ? JSON.parse(answer.body.toString('utf8')) : undefined;
    if (!isPortalUser(user)) throw new GrantRejected('account_unavailable');
    return { id: user.id, name: user.name, email: user.email };
  }

  async function revokeQuietly(refreshToken: string, why: string): Promise<void> {
    await client.revoke(refreshToken).catch((err: unknown) => {
      logger.warn(
        { why, reason: err instanceof Error ? err.name : 'unknown' },
        'could not revoke a portal refresh token',
      );
    });
  }

  function signInFailed(res: Response, reason: string): void {
    logger.info({ reason }, 'portal sign-in failed');
    redirectTo(res, SIGN_IN_FAILED);
  }

  return async (req: Request, res: Response) => {
    const params = new URL(req.originalUrl, 'http://callback.invalid').searchParams;
    const transaction = await transactions.take(req, res);
    if (!transaction) throw new InvalidCallback('This sign-in expired or was already completed. Start again.');
    const state = single(params, 'state');
    if (state === undefined || !constantTimeEqual(state, transaction.state)) {
      throw new InvalidCallback('This sign-in response does not belong to the sign-in this browser started.');
    }
    const iss = single(params, 'iss');
    if (iss !== undefined ? iss !== transaction.issuer : await client.issParameterRequired()) {
      throw new InvalidCallback('This sign-in response comes from an unexpected issuer.');
    }
    if (params.has('error')) {
      const error = single(params, 'error');
      return signInFailed(
        res,
        `authorization error: ${error && /^[a-z_]{1,40}$/.test(error) ? error : 'unrecognised'}`,
      );
    }
    const code = single(params, 'code');
    if (code === undefined) return signInFailed(res, 'no code in the authorization response');

    const callback = new URL(config.portal.redirectUri);
    callback.searchParams.set('code', code);
    callback.searchParams.set('state', state);
    if (iss !== undefined) callback.searchParams.set('iss', iss);

    let issued: IssuedTokens;
    let user: PortalUser;
    try {
      issued = await client.exchangeCode(callback, {
        state: transaction.state,
        codeVerifier: transaction.codeVerifier,
      });
    } catch (err) {
      if (err instanceof GrantRejected) return signInFailed(res, `code exchange refused: ${err.oauthError}`);
      throw err;
    }
    try {
      user = await fetchUser(issued.accessToken);
    } catch (err) {
      await revokeQuietly(issued.refreshToken, 'sign-in abandoned');
      if (err instanceof GrantRejected || err instanceof SyntaxError) return signInFailed(res, 'account unavailable');
      throw err;
    }

    // A sign-in over an older one in the same browser retires the older grant.
    const previous = req.session.portal ? tokens.open(req.session.portal.tokens) : undefined;
    // BF-SF-01, BF-SF-02: every sign-in gets a new session id, whatever id the browser came with.
    await regenerateSession(req);
    req.session.portal = { user, tokens: tokens.seal(issued), signedInAt: deps.clock.now() };
    await saveSession(req);
    if (previous) await revokeQuietly(previous.refreshToken, 'replaced by a new sign-in');
    redirectTo(res, transaction.returnTo);
  };
}
