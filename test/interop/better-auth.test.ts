// better-auth 1.7 (issue 30): its generic OAuth plugin with the discovery URL alone (no endpoints,
// no `accountSubject`, no `getUserInfo`), run through `auth.handler(Request)` with its memory
// adapter, no framework: the social sign-in POST, our pages, the callback (the id_token verified
// against the JWKS from discovery, with its nonce), then a session with the user's name (OI-13).
// It refuses a wrong nonce, a tampered signature and an unknown kid (OI-14). (An expired id_token
// is openid-client's and passport-openidconnect's case: moving this process's Date past the
// id_token's hour would expire better-auth's own 10-minute state first.)
import { betterAuth } from 'better-auth';
import { memoryAdapter } from 'better-auth/adapters/memory';
import { genericOAuth } from 'better-auth/plugins';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { CookieJar } from '../support/browserless-flow.ts';
import {
  resignedWithUnknownKey,
  rewritingTokenResponses,
  startInteropSystem,
  withTamperedSignature,
  type InteropSystem,
} from './interop-support.ts';

/** The application's origin. auth.handler() is called directly, so nothing listens there. */
const APP = 'http://127.0.0.1:3000';

describe('better-auth 1.7 generic OAuth provider', () => {
  let interop: InteropSystem;
  let auth: ReturnType<typeof createAuth>;
  /** What better-auth logged at error level (it sends the browser only `?error=`). */
  const errors: unknown[][] = [];

  function createAuth(clientId: string, clientSecret: string) {
    return betterAuth({
      baseURL: APP,
      secret: 'interop-test-better-auth-secret-0123456789abcdef',
      database: memoryAdapter({ user: [], session: [], account: [], verification: [] }),
      telemetry: { enabled: false },
      logger: { level: 'error', log: (_level, message, ...args) => errors.push([message, ...args]) },
      plugins: [
        genericOAuth({
          config: [
            {
              providerId: 'latchkey',
              discoveryUrl: `${interop.system.authUrl}/.well-known/openid-configuration`,
              clientId,
              clientSecret,
              scopes: ['profile', 'email'],
            },
          ],
        }),
      ],
    });
  }

  beforeAll(async () => {
    interop = await startInteropSystem();
    const { clientId, clientSecret } = await interop.registerClient(`${APP}/api/auth/callback/latchkey`);
    auth = createAuth(clientId, clientSecret);
  });
  afterAll(() => interop?.close());
  afterEach(() => {
    vi.unstubAllGlobals();
    errors.length = 0;
  });

  async function request(jar: CookieJar, path: string, init: { method?: string; json?: unknown } = {}) {
    const headers = new Headers({ origin: APP });
    const cookie = jar.header();
    if (cookie) headers.set('cookie', cookie);
    if (init.json !== undefined) headers.set('content-type', 'application/json');
    const response = await auth.handler(
      new Request(new URL(path, APP), {
        method: init.method ?? 'GET',
        headers,
        body: init.json === undefined ? undefined : JSON.stringify(init.json),
      }),
    );
    jar.store(response);
    return response;
  }

  /** The social sign-in POST: where better-auth sends the browser (its state in the jar). */
  async function startSignIn(jar: CookieJar): Promise<URL> {
    const signIn = await request(jar, '/api/auth/sign-in/social', {
      method: 'POST',
      json: { provider: 'latchkey', callbackURL: '/dashboard' },
    });
    expect(signIn.status).toBe(200);
    return new URL(((await signIn.json()) as { url: string }).url);
  }

  /** A sign-in better-auth refused: back to its error page, the id_token check named in its log, no session. */
  async function expectRefused(jar: CookieJar, done: Response): Promise<void> {
    expect(new URL(done.headers.get('location')!, APP).searchParams.get('error')).toBeTruthy();
    expect(errors.map(([message]) => message)).toContain(
      'Provider "latchkey": id_token failed verification against the discovery JWKS or expected nonce',
    );
    expect(await (await request(jar, '/api/auth/get-session')).json()).toBeNull();
  }

  it('OI-13 signs the user in with only discoveryUrl, into a session with their name', async () => {
    const jar = new CookieJar();
    const authorization = await startSignIn(jar);
    expect(authorization.origin + authorization.pathname).toBe(`${interop.system.authUrl}/oauth/authorize`);
    expect(authorization.searchParams.get('scope')).toBe('openid profile email');
    expect(authorization.searchParams.get('nonce')).toBeTruthy();

    const callback = await interop.runBrowser(authorization);
    const done = await request(jar, callback.pathname + callback.search);
    expect(errors).toEqual([]);
    expect(done.headers.get('location')).toBe('/dashboard');

    const session = (await (await request(jar, '/api/auth/get-session')).json()) as {
      user?: { id: string; name: string; email: string; emailVerified: boolean };
    };
    expect(session.user).toMatchObject({ name: 'Katherine Johnson', email: interop.user.email, emailVerified: false });
    const accounts = await (await auth.$context).internalAdapter.findAccounts(session.user!.id);
    expect(accounts.map((a) => [a.providerId, a.accountId])).toEqual([['latchkey', interop.user.id]]);
  });

  it('OI-14 better-auth refuses an id_token whose nonce is not the one it expects', async () => {
    const jar = new CookieJar();
    const authorization = await startSignIn(jar);
    // The nonce is changed on its way to the server, which echoes what it got (OI-04).
    authorization.searchParams.set('nonce', 'a-nonce-this-sign-in-never-sent');
    const callback = await interop.runBrowser(authorization);
    await expectRefused(jar, await request(jar, callback.pathname + callback.search));
  });

  it.each([
    ['whose signature was tampered with', withTamperedSignature],
    ['signed by a key whose kid is not in the JWKS', resignedWithUnknownKey],
  ])('OI-14 better-auth refuses an id_token %s', async (_name, tamper) => {
    const jar = new CookieJar();
    const callback = await interop.runBrowser(await startSignIn(jar));
    // better-auth fetches through the global fetch: the token response is rewritten on its way.
    vi.stubGlobal(
      'fetch',
      rewritingTokenResponses(`${interop.system.authUrl}/oauth/token`, (body) => ({
        ...body,
        id_token: tamper(body.id_token!),
      })),
    );
    await expectRefused(jar, await request(jar, callback.pathname + callback.search));
  });
});
