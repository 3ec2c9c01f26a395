// passport 0.7 + passport-oauth2 1.8 (issue 18): an Express app signs the user in through the
// generic OAuth2Strategy with the configuration docs/integrating.md shows (state and S256 PKCE kept in
// the session, the profile read from /oauth/userinfo), then refreshes through the strategy's
// OAuth2 client. Run with `expires_in` as the documented digit string and as a JSON number.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type ErrorRequestHandler } from 'express';
import session from 'express-session';
import { Passport } from 'passport';
import OAuth2Strategy from 'passport-oauth2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPIRES_IN_MODES, startInteropSystem, type InteropSystem } from './interop-support.ts';

interface LatchkeyUser {
  id: string;
  name: string;
  email: string;
  accessToken: string;
  refreshToken: string;
  expiresIn: unknown;
}

interface TokenResponse {
  accessToken: string;
  refreshToken: string;
  params: Record<string, unknown>;
}

/**
 * The strategy of docs/integrating.md: OAuth2Strategy with the profile read from /oauth/userinfo (Bearer
 * header: node-oauth's `get` would otherwise put the token in the query string, which the
 * endpoint does not accept) and a refresh through the same OAuth2 client.
 */
class LatchkeyStrategy extends OAuth2Strategy {
  // Not a #private field: passport runs each request on Object.create(strategy).
  readonly userinfoURL: string;

  constructor(
    authUrl: string,
    options: { clientID: string; clientSecret: string; callbackURL: string },
    verify: OAuth2Strategy.VerifyFunction,
  ) {
    super(
      {
        authorizationURL: `${authUrl}/oauth/authorize`,
        tokenURL: `${authUrl}/oauth/token`,
        ...options,
        state: true,
        pkce: true,
      },
      verify,
    );
    this.name = 'latchkey';
    this.userinfoURL = `${authUrl}/oauth/userinfo`;
    this._oauth2.useAuthorizationHeaderforGET(true);
  }

  override userProfile(accessToken: string, done: (err?: unknown, profile?: unknown) => void): void {
    this._oauth2.get(this.userinfoURL, accessToken, (err, body) => {
      if (err) return done(new OAuth2Strategy.InternalOAuthError('Failed to fetch the user profile', err));
      try {
        const json = JSON.parse(String(body)) as { sub: string; name: string; email: string };
        done(null, {
          provider: 'latchkey',
          id: json.sub,
          displayName: json.name,
          emails: [{ value: json.email }],
          _json: json,
        });
      } catch (e) {
        done(e);
      }
    });
  }

  refresh(refreshToken: string): Promise<TokenResponse> {
    return new Promise((resolve, reject) => {
      this._oauth2.getOAuthAccessToken(
        refreshToken,
        { grant_type: 'refresh_token' },
        (err, accessToken, newRefreshToken, params) => {
          if (err || !accessToken || !newRefreshToken) reject(new Error(`refresh failed: ${JSON.stringify(err)}`));
          else resolve({ accessToken, refreshToken: newRefreshToken, params: params as Record<string, unknown> });
        },
      );
    });
  }
}

describe.each(EXPIRES_IN_MODES)('passport-oauth2 1.8 with $name', ({ env }) => {
  let interop: InteropSystem;
  let server: Server;
  let appUrl: string;
  let strategy: LatchkeyStrategy;
  /** What the verify callback got: a real app would store the tokens with the user. */
  const verified: LatchkeyUser[] = [];

  beforeAll(async () => {
    interop = await startInteropSystem(env);
    const passport = new Passport();
    const app = express();
    // The state and the PKCE verifier live in the session between /login and /callback.
    app.use(session({ secret: 'interop-test-session-secret-0123456789', resave: false, saveUninitialized: false }));
    app.use(passport.initialize());
    app.get('/login', passport.authenticate('latchkey', { session: false }));
    app.get('/callback', passport.authenticate('latchkey', { session: false }), (req, res) => {
      const user = req.user as LatchkeyUser;
      res.json({
        name: user.name,
        email: user.email,
        accessToken: user.accessToken !== '',
        refreshToken: user.refreshToken !== '',
      });
    });
    const onError: ErrorRequestHandler = (err: Error & { oauthError?: unknown }, _req, res, _next) => {
      res.status(500).json({ error: err.message, oauthError: err.oauthError });
    };
    app.use(onError);
    server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    appUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    const callbackURL = `${appUrl}/callback`;
    const { clientId, clientSecret } = await interop.registerClient(callbackURL, { requirePkce: true });
    strategy = new LatchkeyStrategy(
      interop.system.authUrl,
      { clientID: clientId, clientSecret, callbackURL },
      (
        accessToken: string,
        refreshToken: string,
        params: { expires_in?: unknown },
        profile: { id: string; displayName: string; emails: Array<{ value: string }> },
        done: OAuth2Strategy.VerifyCallback,
      ) => {
        const user = {
          id: profile.id,
          name: profile.displayName,
          email: profile.emails[0]!.value,
          accessToken,
          refreshToken,
          expiresIn: params.expires_in,
        };
        verified.push(user);
        done(null, user);
      },
    );
    passport.use(strategy);
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await interop.close();
  });

  /** GET /login → the authorization URL passport built, with the session cookie it set. */
  async function startLogin(): Promise<{ location: string; cookie: string }> {
    const response = await fetch(`${appUrl}/login`, { redirect: 'manual' });
    expect(response.status).toBe(302);
    const cookie = response.headers.getSetCookie()[0]!.split(';')[0]!;
    return { location: response.headers.get('location')!, cookie };
  }

  it('CL-06 signs the user in (state and S256 PKCE in the session, profile from /oauth/userinfo) and refreshes', async () => {
    const { location, cookie } = await startLogin();
    const authorization = new URL(location);
    expect(authorization.origin + authorization.pathname).toBe(`${interop.system.authUrl}/oauth/authorize`);
    expect(authorization.searchParams.get('response_type')).toBe('code');
    expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorization.searchParams.get('state')).toBeTruthy();

    const callback = await interop.runBrowser(location);
    expect(callback.searchParams.get('state')).toBe(authorization.searchParams.get('state'));
    // passport-oauth2 ignores the RFC 9207 `iss` (it has no mix-up check); it must not break it.
    expect(callback.searchParams.get('iss')).toBe(interop.system.authUrl);

    const done = await fetch(`${appUrl}${callback.pathname}${callback.search}`, { headers: { cookie } });
    expect(await done.json()).toEqual({
      name: 'Katherine Johnson',
      email: interop.user.email,
      accessToken: true,
      refreshToken: true,
    });
    expect(done.status).toBe(200);

    const user = verified.at(-1)!;
    expect(user.id).not.toBe(user.email);
    // node-oauth hands the token response's other fields through as parsed, unconverted.
    expect(Number(user.expiresIn)).toBeGreaterThan(31_535_000);
    expect(typeof user.expiresIn).toBe('EXPIRES_IN_AS_NUMBER' in env ? 'number' : 'string');
    expect(await interop.profileName(user.accessToken)).toBe('Katherine Johnson');

    const refreshed = await strategy.refresh(user.refreshToken);
    expect(String(refreshed.params.token_type).toLowerCase()).toBe('bearer');
    expect(refreshed.refreshToken).toBeTruthy();
    expect(refreshed.refreshToken).not.toBe(user.refreshToken);
    expect(refreshed.accessToken).not.toBe(user.accessToken);
    expect(await interop.profileName(refreshed.accessToken)).toBe('Katherine Johnson');
    // The rotated refresh token refreshes again.
    const again = await strategy.refresh(refreshed.refreshToken);
    expect(await interop.profileName(again.accessToken)).toBe('Katherine Johnson');
  });

  it('CL-06 refuses a callback outside the browser session that started it (state check)', async () => {
    const { location } = await startLogin();
    const callback = await interop.runBrowser(location);
    // Another browser (no session cookie): passport's state store finds nothing to match.
    const forged = await fetch(`${appUrl}${callback.pathname}${callback.search}`);
    expect(forged.status).toBe(403);
  });
});
