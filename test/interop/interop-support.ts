// The interoperability suite (issue 18): each client library runs the whole flow against the
// real servers with the configuration docs/integrating.md shows, once with `expires_in` as the
// documented digit string and once as a JSON number (EXPIRES_IN_AS_NUMBER=true).
import { authorizeViaPages, type AuthorizeRequest } from '../support/browserless-flow.ts';
import { makeClient, makeUser } from '../support/fixtures.ts';
import { startSystem, type TestSystem } from '../support/system.ts';

export const EXPIRES_IN_MODES = [
  { name: 'expires_in as a string', env: {} },
  { name: 'expires_in as a number', env: { EXPIRES_IN_AS_NUMBER: 'true' } },
] as const;

/**
 * The provider settings docs/integrating.md gives both Auth.js and next-auth: the endpoints by
 * URL, since neither reads the RFC 8414 document this server publishes (they discover only
 * /.well-known/openid-configuration), and without a userinfo URL Auth.js throws "No userinfo
 * endpoint configured". `issuer` is checked against the RFC 9207 `iss` on the callback.
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

export async function startInteropSystem(env: Record<string, string> = {}): Promise<InteropSystem> {
  const system = await startSystem({ RATE_LIMIT_TOKEN_PER_MINUTE: '10000', ...env });
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
