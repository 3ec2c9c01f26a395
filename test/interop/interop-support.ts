// The interoperability suite (issue 18): each client library runs the whole flow against the
// real servers with the configuration docs/integrating.md shows, once with `expires_in` as the
// documented digit string and once as a JSON number (EXPIRES_IN_AS_NUMBER=true).
import { generateKeyPairSync, sign } from 'node:crypto';
import { authorizeViaPages, type AuthorizeRequest } from '../support/browserless-flow.ts';
import { makeClient, makeUser } from '../support/fixtures.ts';
import { startSystem, type SystemOptions, type TestSystem } from '../support/system.ts';

export const EXPIRES_IN_MODES = [
  { name: 'expires_in as a string', env: {} },
  { name: 'expires_in as a number', env: { EXPIRES_IN_AS_NUMBER: 'true' } },
] as const;

/**
 * The plain OAuth 2.0 provider settings for both Auth.js and next-auth: the endpoints by URL
 * (neither reads the RFC 8414 document; as OpenID Connect clients they need only the issuer,
 * OI-13), and without a userinfo URL Auth.js throws "No userinfo endpoint configured". `issuer`
 * is checked against the RFC 9207 `iss` on the callback.
 */
export function latchkeyOAuthProvider(authUrl: string, clientId: string, clientSecret: string) {
  return {
    id: 'latchkey',
    name: 'Latchkey',
    type: 'oauth' as const,
    issuer: authUrl,
    authorization: `${authUrl}/oauth/authorize`,
    token: `${authUrl}/oauth/token`,
    userinfo: `${authUrl}/oauth/userinfo`,
    clientId,
    clientSecret,
    checks: ['pkce', 'state'] as Array<'pkce' | 'state'>,
  };
}

export interface InteropSystem {
  system: TestSystem;
  user: Awaited<ReturnType<typeof makeUser>>;
  /** A client registered with this redirect URL (PKCE optional unless asked). */
  registerClient(
    redirectUri: string,
    options?: { requirePkce?: boolean },
  ): Promise<{ clientId: string; clientSecret: string }>;
  /**
   * What the user's browser does with the authorization URL a library built: sign in, Allow,
   * and back to the redirect URL, which is returned with its query (code, state, iss).
   */
  runBrowser(authorizationUrl: URL | string): Promise<URL>;
  /** `{ profile { name } }` at the API with the token; undefined when the API refuses it. */
  profileName(accessToken: string): Promise<string | undefined>;
  close(): Promise<void>;
}

export async function startInteropSystem(
  env: Record<string, string> = {},
  options: SystemOptions = {},
): Promise<InteropSystem> {
  const system = await startSystem({ RATE_LIMIT_TOKEN_PER_MINUTE: '10000', ...env }, options);
  const user = await makeUser(system, 'Katherine Johnson');
  return {
    system,
    user,
    async registerClient(redirectUri, options = {}) {
      const { client, clientSecret } = await makeClient(system, user, {
        redirectUri,
        requirePkce: options.requirePkce ?? false,
        name: 'Interop App',
      });
      return { clientId: client.id, clientSecret };
    },
    async runBrowser(authorizationUrl) {
      const url = new URL(authorizationUrl);
      if (url.origin + url.pathname !== `${system.authUrl}/oauth/authorize`) {
        throw new Error(`the library sent the browser to ${url.origin}${url.pathname}, not the authorization endpoint`);
      }
      const p = url.searchParams;
      const extra: Array<[string, string]> = [];
      for (const [name, value] of p) {
        if (
          !['client_id', 'redirect_uri', 'state', 'code_challenge', 'code_challenge_method', 'response_type'].includes(
            name,
          )
        ) {
          extra.push([name, value]);
        }
      }
      const request: AuthorizeRequest = {
        clientId: p.get('client_id')!,
        redirectUri: p.get('redirect_uri')!,
        ...(p.get('state') ? { state: p.get('state')! } : {}),
        ...(p.get('code_challenge')
          ? { codeChallenge: p.get('code_challenge')!, codeChallengeMethod: p.get('code_challenge_method') ?? 'plain' }
          : {}),
        ...(p.get('response_type') ? { responseType: p.get('response_type')! } : {}),
        ...(extra.length > 0 ? { extra } : {}),
      };
      const response = await authorizeViaPages(system, { ...request, user });
      return new URL(response.location);
    },
    async profileName(accessToken) {
      const response = await fetch(`${system.apiUrl}/graphql`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${accessToken}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ query: '{ profile { name } }' }),
      });
      if (response.status !== 200) return undefined;
      return ((await response.json()) as { data?: { profile: { name: string } } }).data?.profile.name;
    },
    close: () => system.close(),
  };
}

/**
 * What an OpenID Connect sign-in asks for (issue 30): `openid` for the id_token (OI-01), the
 * user's name and email in it by scope (OI-02).
 */
export const OIDC_SCOPES = ['openid', 'profile', 'email'] as const;

type TokenResponseBody = Record<string, unknown> & { id_token?: string };

/**
 * A fetch that passes everything through (to `send`, the real fetch by default, so that it can
 * stand in for the global one) but hands the token endpoint's JSON answer to `rewrite` first:
 * what a man in the middle (or a broken server) would send the library (OI-14).
 */
export function rewritingTokenResponses(
  tokenEndpoint: string,
  rewrite: (body: TokenResponseBody) => TokenResponseBody,
  send: typeof fetch = fetch,
): (url: string | URL | Request, init?: object) => Promise<Response> {
  // `init` as the library builds it (openid-client's body type is wider than RequestInit's).
  return async (url, init) => {
    const response = await send(url, init as RequestInit);
    if ((url instanceof Request ? url.url : String(url)) !== tokenEndpoint || response.status !== 200) return response;
    const body = rewrite((await response.json()) as TokenResponseBody);
    return new Response(JSON.stringify(body), { status: 200, headers: response.headers });
  };
}

/** The JWS with one bit of its signature flipped (header and claims untouched). */
export function withTamperedSignature(jws: string): string {
  const [header, payload, signature] = jws.split('.') as [string, string, string];
  const bytes = Buffer.from(signature, 'base64url');
  const middle = bytes.length >> 1;
  bytes[middle] = bytes[middle]! ^ 0x01;
  return `${header}.${payload}.${bytes.toString('base64url')}`;
}

/**
 * The same claims signed RS256 with a fresh key whose kid the JWKS does not list: a valid
 * signature by a key the issuer never published.
 */
export function resignedWithUnknownKey(jws: string): string {
  const payload = jws.split('.')[1]!;
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const header = Buffer.from(JSON.stringify({ alg: 'RS256', kid: 'not-in-the-jwks', typ: 'JWT' })).toString(
    'base64url',
  );
  const signature = sign('sha256', Buffer.from(`${header}.${payload}`), privateKey).toString('base64url');
  return `${header}.${payload}.${signature}`;
}
