// next-auth 4 (issue 18) with the configuration docs/integrating.md shows, through its pages-router API
// handler `NextAuth(req, res, options)` mounted at /api/auth/* in a small Express app that gives
// it what Next.js would (req.query.nextauth, req.cookies, a parsed form body). next-auth never
// loads Next.js on this path. The flow: CSRF token, sign-in POST, our pages, the callback with
// its RFC 9207 `iss`, then the session with the user's name and email; with `expires_in` as a
// string and as a number. And as an OpenID Connect client from the discovery document (issue 30, OI-13).
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import express from 'express';
import type { AuthOptions } from 'next-auth';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CookieJar } from '../support/browserless-flow.ts';
import { EXPIRES_IN_MODES, latchkeyOAuthProvider, startInteropSystem, type InteropSystem } from './interop-support.ts';

/** next-auth 4 is CommonJS (`exports.default`): required as Next.js's bundler would load it. */
const NextAuth = (
  createRequire(import.meta.url)('next-auth') as {
    default: (req: unknown, res: unknown, options: AuthOptions) => Promise<unknown>;
  }
).default;

/** The provider of docs/integrating.md for next-auth 4. */
function latchkeyProvider(authUrl: string, clientId: string, clientSecret: string): AuthOptions['providers'][number] {
  const oauth = latchkeyOAuthProvider(authUrl, clientId, clientSecret);
  return {
    // openid-client 5 checks the callback's iss against `issuer`.
    ...oauth,
    // openid-client 5 sends scope=openid unless told otherwise, and its OAuth 2.0 callback refuses
    // the id_token that brings ("id_token detected in the response"): as OAuth 2.0, no openid.
    authorization: { url: oauth.authorization, params: { scope: 'profile email' } },
    profile: (profile: { sub: string; name: string; email: string }) => ({
      id: profile.sub,
      name: profile.name,
      email: profile.email,
    }),
  };
}

/**
 * next-auth 4 as an OpenID Connect client (OI-13): the discovery document by URL (`wellKnown`),
 * the profile from the verified id_token (`idToken: true`: openid-client 5 checks its signature
 * against the JWKS, iss, aud, exp and the nonce).
 */
function latchkeyOidcProvider(
  authUrl: string,
  clientId: string,
  clientSecret: string,
): AuthOptions['providers'][number] {
  return {
    id: 'latchkey-oidc',
    name: 'Latchkey',
    type: 'oauth',
    wellKnown: `${authUrl}/.well-known/openid-configuration`,
    idToken: true,
    authorization: { params: { scope: 'openid profile email' } },
    checks: ['pkce', 'state', 'nonce'],
    clientId,
    clientSecret,
    profile: (claims: { sub: string; name: string; email: string }) => ({
      id: claims.sub,
      name: claims.name,
      email: claims.email,
    }),
  };
}

function parseCookies(header: string | undefined): Record<string, string> {
  const cookies: Record<string, string> = {};
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0) cookies[part.slice(0, eq).trim()] = decodeURIComponent(part.slice(eq + 1).trim());
  }
  return cookies;
}

describe.each(EXPIRES_IN_MODES)('CL-09 next-auth 4 with $name', ({ env }) => {
  let interop: InteropSystem;
  let server: Server;
  let appUrl: string;
  const accounts: Array<Record<string, unknown>> = [];
  /** next-auth's error codes (it logs the cause and sends the browser only `?error=`). */
  const errors: string[] = [];

  beforeAll(async () => {
    interop = await startInteropSystem(env);
    server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    appUrl = `http://localhost:${(server.address() as AddressInfo).port}`;
    // next-auth 4 reads the app's own URL from NEXTAUTH_URL.
    vi.stubEnv('NEXTAUTH_URL', appUrl);
    const { clientId, clientSecret } = await interop.registerClient(`${appUrl}/api/auth/callback/latchkey`);
    const oidcClient = await interop.registerClient(`${appUrl}/api/auth/callback/latchkey-oidc`);
    const options: AuthOptions = {
      secret: 'interop-test-nextauth-secret-0123456789abcdef',
      providers: [
        latchkeyProvider(interop.system.authUrl, clientId, clientSecret),
        latchkeyOidcProvider(interop.system.authUrl, oidcClient.clientId, oidcClient.clientSecret),
      ],
      logger: { error: (code) => errors.push(code), warn: () => {}, debug: () => {} },
      callbacks: {
        // Test only: what next-auth made of the token response.
        jwt: ({ token, account }) => {
          if (account) accounts.push({ ...account });
          return token;
        },
      },
    };
    const app = express();
    app.use(express.urlencoded({ extended: false }));
    // What Next.js's pages router hands an API route: the catch-all segments and the cookies.
    app.all('/api/auth/*nextauth', (req, res) => {
      Object.defineProperty(req, 'query', { value: { ...req.query, nextauth: req.params.nextauth } });
      Object.assign(req, { cookies: parseCookies(req.headers.cookie) });
      return NextAuth(req, res, options);
    });
    server.on('request', app);
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    await new Promise((resolve) => server?.close(resolve));
    await interop?.close();
  });

  async function call(jar: CookieJar, path: string, init: RequestInit = {}): Promise<Response> {
    const response = await fetch(new URL(path, appUrl), {
      ...init,
      headers: { cookie: jar.header() ?? '', ...init.headers },
      redirect: 'manual',
    });
    jar.store(response);
    return response;
  }

  /** CSRF token, then the sign-in POST: where next-auth sends the browser. */
  async function startSignIn(jar: CookieJar, provider = 'latchkey'): Promise<string> {
    const { csrfToken } = (await (await call(jar, '/api/auth/csrf')).json()) as { csrfToken: string };
    const signIn = await call(jar, `/api/auth/signin/${provider}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrfToken, callbackUrl: `${appUrl}/` }).toString(),
    });
    expect(signIn.status).toBe(302);
    return signIn.headers.get('location')!;
  }

  it('CL-09 signs the user in through our pages, into a session with their name and email', async () => {
    const jar = new CookieJar();
    const authorize = await startSignIn(jar);
    expect(authorize.startsWith(`${interop.system.authUrl}/oauth/authorize?`)).toBe(true);

    const callback = await interop.runBrowser(authorize);
    expect(callback.searchParams.get('iss')).toBe(interop.system.authUrl);
    const done = await call(jar, callback.pathname + callback.search);
    expect(done.status).toBe(302);
    expect(done.headers.get('location')).toBe(`${appUrl}/`);

    const session = (await (await call(jar, '/api/auth/session')).json()) as { user?: { name: string; email: string } };
    expect(session.user).toMatchObject({ name: 'Katherine Johnson', email: interop.user.email });
    expect(errors).toEqual([]);

    const account = accounts.at(-1)!;
    expect(account.providerAccountId).toBe(interop.user.id);
    expect(await interop.profileName(account.access_token as string)).toBe('Katherine Johnson');
    // expires_at (seconds) is a number a year ahead, whichever form expires_in took.
    expect(typeof account.expires_at).toBe('number');
    expect((account.expires_at as number) - Date.now() / 1000).toBeGreaterThan(364 * 24 * 3600);
  });

  it('CL-09 a callback in another browser (without the state and PKCE cookies) makes no session', async () => {
    const callback = await interop.runBrowser(await startSignIn(new CookieJar()));
    const stranger = new CookieJar();
    const done = await call(stranger, callback.pathname + callback.search);
    expect(done.headers.get('location')).toMatch(/\/api\/auth\/(signin|error)\?error=/);
    const session = (await (await call(stranger, '/api/auth/session')).json()) as Record<string, unknown>;
    expect(session).toEqual({});
    expect(errors).toContain('OAUTH_CALLBACK_ERROR'); // "State cookie was missing."
  });

  it('OI-13 signs the user in as an OpenID Connect client (wellKnown, idToken), into a session with their name', async () => {
    const jar = new CookieJar();
    const errorsBefore = errors.length;
    const authorize = new URL(await startSignIn(jar, 'latchkey-oidc'));
    expect(authorize.origin + authorize.pathname).toBe(`${interop.system.authUrl}/oauth/authorize`);
    expect(authorize.searchParams.get('nonce')).toBeTruthy();

    const callback = await interop.runBrowser(authorize);
    const done = await call(jar, callback.pathname + callback.search);
    expect(errors.slice(errorsBefore)).toEqual([]);
    expect(done.headers.get('location')).toBe(`${appUrl}/`);

    const session = (await (await call(jar, '/api/auth/session')).json()) as { user?: { name: string; email: string } };
    expect(session.user).toMatchObject({ name: 'Katherine Johnson', email: interop.user.email });
    const account = accounts.at(-1)!;
    expect(account.provider).toBe('latchkey-oidc');
    expect(account.providerAccountId).toBe(interop.user.id);
    expect(account.id_token).toBeTruthy();
  });
});
