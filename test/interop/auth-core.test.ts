// @auth/core 0.41 (Auth.js, under next-auth 5 and the other framework packages) (issue 18):
// `Auth(request, config)` driven with Fetch Requests, no framework, with the provider
// configuration docs/integrating.md shows: CSRF token, sign-in POST, our pages, the callback with
// Auth.js's state/PKCE cookies, then a session holding the user's name and email from
// /oauth/userinfo. Run with `expires_in` as the documented digit string and as a JSON number.
// And as an OpenID Connect client (issue 30, OI-13): an `oidc` provider with the issuer URL alone.
import { Auth, customFetch, type AuthConfig } from '@auth/core';
import type { Account } from '@auth/core/types';
import type { OAuthConfig, Provider } from '@auth/core/providers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CookieJar } from '../support/browserless-flow.ts';
import { EXPIRES_IN_MODES, latchkeyOAuthProvider, startInteropSystem, type InteropSystem } from './interop-support.ts';

/** The application's origin. Auth() is called directly, so nothing listens there. */
const APP = 'http://127.0.0.1:3000';
const CALLBACK = `${APP}/auth/callback/latchkey`;

/**
 * The provider of docs/integrating.md. No `profile()` and no callbacks are needed: Auth.js's default profile
 * maps `sub`, `name` and `email` from /oauth/userinfo, and its default session shows name and
 * email. `checks` is optional (the default ['pkce'] works too); 'state' adds the state cookie.
 */
function latchkeyProvider(
  authUrl: string,
  clientId: string,
  clientSecret: string,
): OAuthConfig<{ sub: string; name: string; email: string }> {
  // Without `issuer` Auth.js compares the callback's `iss` with "https://authjs.dev" and refuses the sign-in.
  return latchkeyOAuthProvider(authUrl, clientId, clientSecret);
}

/** A browser talking to the Auth.js app: one cookie jar, every redirect visible. */
class AppBrowser {
  readonly jar = new CookieJar();

  readonly config: AuthConfig;

  constructor(config: AuthConfig) {
    this.config = config;
  }

  async request(path: string, init: { method?: string; form?: Record<string, string> } = {}): Promise<Response> {
    const headers = new Headers();
    const cookie = this.jar.header();
    if (cookie) headers.set('cookie', cookie);
    let body: string | undefined;
    if (init.form) {
      headers.set('content-type', 'application/x-www-form-urlencoded');
      body = new URLSearchParams(init.form).toString();
    }
    const response = await Auth(
      new Request(new URL(path, APP), { method: init.method ?? 'GET', headers, body }),
      this.config,
    );
    this.jar.store(response);
    return response;
  }

  /** GET /auth/csrf, then POST /auth/signin/latchkey: the Location Auth.js sends the browser to. */
  async signIn(): Promise<URL> {
    const { csrfToken } = (await (await this.request('/auth/csrf')).json()) as { csrfToken: string };
    const response = await this.request('/auth/signin/latchkey', {
      method: 'POST',
      form: { csrfToken, callbackUrl: `${APP}/` },
    });
    expect(response.status).toBe(302);
    return new URL(response.headers.get('location')!);
  }
}

describe.each(EXPIRES_IN_MODES)('@auth/core 0.41 with $name', ({ env }) => {
  let interop: InteropSystem;
  let authUrl: string;
  let client: { clientId: string; clientSecret: string };

  beforeAll(async () => {
    interop = await startInteropSystem(env);
    authUrl = interop.system.authUrl;
    client = await interop.registerClient(CALLBACK, { requirePkce: true });
  });
  afterAll(() => interop.close());

  /** The configuration of docs/integrating.md, plus a jwt callback and a logger that record (test only). */
  function authConfig(provider: Provider, accounts: Account[] = [], errors: Error[] = []): AuthConfig {
    return {
      secret: 'interop-test-secret-0123456789-abcdefghij',
      trustHost: true,
      basePath: '/auth',
      providers: [provider],
      callbacks: {
        jwt({ token, account }) {
          if (account) accounts.push(account);
          return token;
        },
      },
      logger: { error: (e) => errors.push(e), warn: () => {}, debug: () => {} },
    };
  }

  it('CL-07 signs the user in: the session has the name and email from /oauth/userinfo', async () => {
    const accounts: Account[] = [];
    const browser = new AppBrowser(
      authConfig(latchkeyProvider(authUrl, client.clientId, client.clientSecret), accounts),
    );

    const authorization = await browser.signIn();
    expect(authorization.origin + authorization.pathname).toBe(`${authUrl}/oauth/authorize`);
    expect(authorization.searchParams.get('redirect_uri')).toBe(CALLBACK);
    expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorization.searchParams.get('state')).toBeTruthy();
    // Auth.js adds `scope=openid profile email` to a string `authorization` URL even for
    // type "oauth"; the authorization endpoint ignores parameters it does not read.
    expect(authorization.searchParams.get('scope')).toBe('openid profile email');

    const callback = await interop.runBrowser(authorization);
    expect(callback.searchParams.get('iss')).toBe(authUrl);
    const done = await browser.request(callback.pathname + callback.search);
    expect(done.status).toBe(302);
    expect(done.headers.get('location')).toBe(`${APP}/`);
    expect(browser.jar.get('authjs.session-token')).toBeTruthy();

    const session = (await (await browser.request('/auth/session')).json()) as {
      user?: { name?: string; email?: string };
    };
    expect(session.user).toEqual({ name: 'Katherine Johnson', email: interop.user.email });

    // What Auth.js keeps of the token response (the jwt callback's `account`, what an adapter stores).
    const account = accounts.at(-1)!;
    expect(account.provider).toBe('latchkey');
    expect(account.providerAccountId).not.toBe(interop.user.email);
    expect(await interop.profileName(account.access_token!)).toBe('Katherine Johnson');
    expect(account.refresh_token).toBeTruthy();
    // A digit-string expires_in is converted before Auth.js uses it: oauth4webapi parses it
    // (parseFloat) and Auth.js sets expires_at = floor(now) + Number(expires_in).
    expect(account.expires_in).toBe(Number(interop.system.config.tokenTtlSeconds));
    const now = Math.floor(Date.now() / 1000);
    expect(account.expires_at).toBeGreaterThanOrEqual(now + interop.system.config.tokenTtlSeconds - 60);
    expect(account.expires_at).toBeLessThanOrEqual(now + interop.system.config.tokenTtlSeconds);
  });

  it('CL-07 refuses a callback without the state and PKCE cookies of the browser that started it', async () => {
    const errors: Error[] = [];
    const config = authConfig(latchkeyProvider(authUrl, client.clientId, client.clientSecret), [], errors);
    const browser = new AppBrowser(config);
    const callback = await interop.runBrowser(await browser.signIn());
    const other = new AppBrowser(config);
    const done = await other.request(callback.pathname + callback.search);
    expect(done.status).toBe(302);
    expect(new URL(done.headers.get('location')!).searchParams.get('error')).toBe('Configuration');
    expect(other.jar.get('authjs.session-token')).toBeUndefined();
    expect(errors.map((e) => e.name)).toEqual(['InvalidCheck']);
  });

  it('CL-07 why `issuer` is set: without it Auth.js refuses the RFC 9207 iss on the callback', async () => {
    const { issuer: _issuer, ...withoutIssuer } = latchkeyProvider(authUrl, client.clientId, client.clientSecret);
    const errors: Error[] = [];
    const browser = new AppBrowser(authConfig(withoutIssuer, [], errors));
    const callback = await interop.runBrowser(await browser.signIn());
    const done = await browser.request(callback.pathname + callback.search);
    expect(done.status).toBe(302);
    expect(new URL(done.headers.get('location')!).searchParams.get('error')).toBe('Configuration');
    expect(browser.jar.get('authjs.session-token')).toBeUndefined();
    // oauth4webapi's validateAuthResponse, comparing `iss` with the fallback "https://authjs.dev".
    expect(errors.map((e) => (e.cause as { err?: Error } | undefined)?.err?.message)).toEqual([
      'unexpected "iss" (issuer) response parameter value',
    ]);
  });

  it('OI-13 signs the user in with an `oidc` provider given only issuer, clientId and clientSecret', async () => {
    const requested: string[] = [];
    const accounts: Account[] = [];
    // No endpoints: Auth.js discovers them at /.well-known/openid-configuration (OI-07).
    const provider = {
      id: 'latchkey',
      name: 'Latchkey',
      type: 'oidc' as const,
      issuer: authUrl,
      clientId: client.clientId,
      clientSecret: client.clientSecret,
      [customFetch]: (...args: Parameters<typeof fetch>) => {
        requested.push(String(args[0]));
        return fetch(...args);
      },
    };
    const errors: Error[] = [];
    const browser = new AppBrowser(authConfig(provider, accounts, errors));
    const authorization = await browser.signIn();
    expect(authorization.origin + authorization.pathname).toBe(`${authUrl}/oauth/authorize`);
    expect(authorization.searchParams.get('scope')).toBe('openid profile email');

    const callback = await interop.runBrowser(authorization);
    const done = await browser.request(callback.pathname + callback.search);
    expect(errors).toEqual([]);
    expect(done.headers.get('location')).toBe(`${APP}/`);
    expect(requested[0]).toBe(`${authUrl}/.well-known/openid-configuration`);
    expect(requested).toContain(`${authUrl}/oauth/token`);

    // The profile of an `oidc` provider is the id_token's claims (its name and email by scope, OI-02).
    const session = (await (await browser.request('/auth/session')).json()) as {
      user?: { name?: string; email?: string };
    };
    expect(session.user).toMatchObject({ name: 'Katherine Johnson', email: interop.user.email });
    const account = accounts.at(-1)!;
    expect(account.providerAccountId).toBe(interop.user.id);
    expect(account.id_token).toBeTruthy();
  });
});
