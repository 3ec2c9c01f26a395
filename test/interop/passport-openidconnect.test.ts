// passport 0.7 + passport-openidconnect 0.1 (issue 30): an Express app signs the user in with the
// OpenIDConnectStrategy, configured from the discovery document (the strategy takes no issuer
// URL alone: its issuer and endpoints are read from /.well-known/openid-configuration, as an app
// would at start), with state and a nonce in the session; the profile is the id_token's claims
// (OI-13). It refuses a wrong nonce and an expired id_token (OI-14); it does not check the
// id_token's signature (it trusts the token endpoint's TLS channel), so the signature cases are
// openid-client's and better-auth's.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import session from 'express-session';
import { Passport, type Profile } from 'passport';
import OpenIDConnectStrategy from 'passport-openidconnect';
import { ID_TOKEN_TTL_MS } from '@latchkey/core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startInteropSystem, type InteropSystem } from './interop-support.ts';

interface Discovery {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  userinfo_endpoint: string;
}

describe('passport-openidconnect 0.1 as an OpenID Connect relying party', () => {
  let interop: InteropSystem;
  let server: Server;
  let appUrl: string;
  /** The profiles the verify callback got. */
  const profiles: Profile[] = [];

  beforeAll(async () => {
    interop = await startInteropSystem();
    const app = express();
    app.use(session({ secret: 'interop-test-session-secret-0123456789', resave: false, saveUninitialized: false }));
    server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    appUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    const callbackURL = `${appUrl}/callback`;
    const { clientId, clientSecret } = await interop.registerClient(callbackURL);
    const discovery = (await (
      await fetch(`${interop.system.authUrl}/.well-known/openid-configuration`)
    ).json()) as Discovery;
    const passport = new Passport();
    passport.use(
      'latchkey',
      new OpenIDConnectStrategy(
        {
          issuer: discovery.issuer,
          authorizationURL: discovery.authorization_endpoint,
          tokenURL: discovery.token_endpoint,
          userInfoURL: discovery.userinfo_endpoint,
          clientID: clientId,
          clientSecret,
          callbackURL,
          scope: ['profile', 'email'],
          nonce: 'true',
        },
        // Three arguments: the profile is the id_token's claims (no userinfo request).
        (_issuer: string, profile: Profile, done: (err: Error | null, user?: Express.User) => void) => {
          profiles.push(profile);
          done(null, profile);
        },
      ),
    );
    app.use(passport.initialize());
    app.get('/login', passport.authenticate('latchkey', { session: false }));
    // The custom-callback form, so that a refusal's reason reaches the test.
    app.get('/callback', (req, res, next) => {
      const authenticate = passport.authenticate(
        'latchkey',
        { session: false },
        (err: Error | null, user: Profile | false, info?: { message?: string }, status?: number) => {
          if (err) return next(err);
          if (!user) return res.status(status ?? 401).json({ refused: info?.message });
          return res.json({ displayName: user.displayName });
        },
      ) as express.RequestHandler;
      authenticate(req, res, next);
    });
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await interop?.close();
  });

  /** GET /login → the authorization URL the strategy built, with the session cookie that holds its state and nonce. */
  async function startLogin(): Promise<{ authorization: URL; cookie: string }> {
    const response = await fetch(`${appUrl}/login`, { redirect: 'manual' });
    expect(response.status).toBe(302);
    const cookie = response.headers.getSetCookie()[0]!.split(';')[0]!;
    return { authorization: new URL(response.headers.get('location')!), cookie };
  }

  async function finish(callback: URL, cookie: string): Promise<Response> {
    return fetch(`${appUrl}${callback.pathname}${callback.search}`, { headers: { cookie }, redirect: 'manual' });
  }

  it('OI-13 signs the user in: the profile from the id_token has their name', async () => {
    const { authorization, cookie } = await startLogin();
    expect(authorization.origin + authorization.pathname).toBe(`${interop.system.authUrl}/oauth/authorize`);
    expect(authorization.searchParams.get('scope')).toBe('openid profile email');
    expect(authorization.searchParams.get('nonce')).toBeTruthy();

    const done = await finish(await interop.runBrowser(authorization), cookie);
    expect(await done.json()).toEqual({ displayName: 'Katherine Johnson' });
    const profile = profiles.at(-1)!;
    expect(profile.id).toBe(interop.user.id);
    expect(profile.emails).toEqual([{ value: interop.user.email }]);
  });

  it('OI-14 passport-openidconnect refuses an id_token whose nonce is not the one it stored', async () => {
    const { authorization, cookie } = await startLogin();
    // The nonce is changed on its way to the server, which echoes what it got (OI-04).
    authorization.searchParams.set('nonce', 'a-nonce-this-session-never-sent');
    const done = await finish(await interop.runBrowser(authorization), cookie);
    expect(await done.json()).toEqual({ refused: 'ID token contains invalid nonce.' });
    expect(done.status).toBe(403);
  });

  it('OI-14 passport-openidconnect refuses an expired id_token', async () => {
    const { authorization, cookie } = await startLogin();
    const callback = await interop.runBrowser(authorization);
    // The callback arrives after the id_token's exp: this process's Date (which the strategy
    // reads) moves past the lifetime; the server's ManualClock stays where it signs.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + ID_TOKEN_TTL_MS + 5 * 60_000 });
    try {
      const done = await finish(callback, cookie);
      expect(await done.json()).toEqual({ refused: 'ID token has expired.' });
      expect(done.status).toBe(403);
    } finally {
      vi.useRealTimers();
    }
  });
});
