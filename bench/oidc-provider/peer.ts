// node-oidc-provider 9, the peer of issue 38's authorization-server rows, configured as its
// documentation shows (https://github.com/panva/node-oidc-provider/tree/main/docs): one static
// confidential client (client_secret_basic), refresh-token rotation on every use, introspection
// on, and its development interactions (devInteractions, on by default) serving sign-in and
// consent. Its storage is bench/oidc-provider/sqlite-adapter.ts: a SQLite file, like Latchkey's.
// The target process serves it (bench/targets/oidc-provider.target.ts); the bench process opens
// a second Provider on the same file to mint codes, refresh tokens and an access token through
// the provider's own models (what its authorize and token endpoints save), as bench-data.ts
// mints Latchkey's through its core.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import Provider, { type Configuration } from 'oidc-provider';
import { sqliteAdapter } from './sqlite-adapter.ts';

export const PEER_CLIENT = {
  id: 'bench-client',
  redirectUri: 'https://client.example/cb',
} as const;

/** What a grant holds: offline_access is how a client asks node-oidc-provider for a refresh token. */
export const PEER_SCOPE = 'profile email offline_access';
export const PEER_ACCOUNT = 'bench-user';

/** What the target and the bench process agree on, passed through the environment. */
export interface PeerSettings {
  /** The SQLite file. */
  file: string;
  port: number;
  clientSecret: string;
  /** Cookie signing keys and the signing key, the same in both processes. */
  cookieKey: string;
  signingKey: string;
  /** Latchkey's lifetimes (its configuration's defaults), in seconds, so both keep tokens as long. */
  accessTokenTtl: number;
  refreshTokenTtl: number;
}

export function newPeerSettings(
  file: string,
  port: number,
  lifetimes: { accessTokenTtl: number; refreshTokenTtl: number },
): PeerSettings {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    file,
    port,
    clientSecret: randomBytes(32).toString('base64url'),
    cookieKey: randomBytes(32).toString('base64url'),
    signingKey: JSON.stringify(privateKey.export({ format: 'jwk' })),
    ...lifetimes,
  };
}

export const peerEnv = (settings: PeerSettings): Record<string, string> => ({
  BENCH_PEER_SETTINGS: JSON.stringify(settings),
});

export function peerSettingsFromEnv(): PeerSettings {
  const raw = process.env.BENCH_PEER_SETTINGS;
  if (!raw) throw new Error('BENCH_PEER_SETTINGS is not set');
  return JSON.parse(raw) as PeerSettings;
}

export function createPeerProvider(settings: PeerSettings): Provider {
  const configuration: Configuration = {
    adapter: sqliteAdapter(settings.file),
    clients: [
      {
        client_id: PEER_CLIENT.id,
        client_secret: settings.clientSecret,
        redirect_uris: [PEER_CLIENT.redirectUri],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    cookies: { keys: [settings.cookieKey] },
    jwks: { keys: [{ ...(JSON.parse(settings.signingKey) as object), kid: 'bench', alg: 'RS256', use: 'sig' }] },
    // Latchkey's lifetimes; a grant lives as long as its refresh tokens.
    ttl: {
      AccessToken: settings.accessTokenTtl,
      RefreshToken: settings.refreshTokenTtl,
      Grant: settings.refreshTokenTtl,
    },
    findAccount: async (_ctx, id) => ({ accountId: id, claims: async () => ({ sub: id }) }),
    scopes: ['openid', 'offline_access', 'profile', 'email'],
    features: {
      introspection: { enabled: true },
      devInteractions: { enabled: true },
    },
    // Rotation on every use, as Latchkey does (DD-4); the default rotates public clients' only.
    rotateRefreshToken: true,
    // Like Latchkey's bench client (requirePkce: false): a confidential client, no PKCE.
    pkce: { required: () => false },
  };
  return new Provider(`http://127.0.0.1:${settings.port}`, configuration);
}

/** Fixtures minted through the provider's models, into its storage. */
export class PeerMint {
  readonly #provider: Provider;

  constructor(settings: PeerSettings) {
    this.#provider = createPeerProvider(settings);
  }

  async #grant(): Promise<string> {
    const grant = new this.#provider.Grant({ accountId: PEER_ACCOUNT, clientId: PEER_CLIENT.id });
    grant.addOIDCScope(PEER_SCOPE);
    return grant.save();
  }

  async #client() {
    const client = await this.#provider.Client.find(PEER_CLIENT.id);
    if (!client) throw new Error('the peer client is not configured');
    return client;
  }

  /** Authorization codes, each under a grant of its own, as an approved authorization request saves them. */
  async codes(count: number): Promise<string[]> {
    return this.#mint(
      count,
      (client, grantId) =>
        new this.#provider.AuthorizationCode({
          accountId: PEER_ACCOUNT,
          grantId,
          client,
          redirectUri: PEER_CLIENT.redirectUri,
          scope: PEER_SCOPE,
          authTime: Math.floor(Date.now() / 1000),
          // @types/oidc-provider asks for gty on a code, which the provider's own codes do not carry.
        } as ConstructorParameters<Provider['AuthorizationCode']>[0]),
    );
  }

  /** Refresh tokens, each under a grant of its own, as a code exchange saves them. */
  async refreshTokens(count: number): Promise<string[]> {
    return this.#mint(
      count,
      (client, grantId) =>
        new this.#provider.RefreshToken({
          accountId: PEER_ACCOUNT,
          grantId,
          client,
          gty: 'authorization_code',
          scope: PEER_SCOPE,
        }),
    );
  }

  /** `count` values of one model, each saved under a grant of its own, one after another. */
  async #mint(
    count: number,
    make: (client: InstanceType<Provider['Client']>, grantId: string) => { save(): Promise<string> },
  ): Promise<string[]> {
    const client = await this.#client();
    const values: string[] = [];
    for (let i = 0; i < count; i++) values.push(await make(client, await this.#grant()).save());
    return values;
  }

  /** A live opaque access token, for the introspection row. */
  async accessToken(): Promise<string> {
    const token = new this.#provider.AccessToken({
      accountId: PEER_ACCOUNT,
      grantId: await this.#grant(),
      client: await this.#client(),
      gty: 'authorization_code',
      scope: PEER_SCOPE,
    });
    return token.save();
  }
}
