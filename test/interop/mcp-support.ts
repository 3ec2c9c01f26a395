// What the MCP interoperability tests (issue 31) share: a pre-registered public client, as
// docs/mcp.md tells an operator to register one for an MCP client that neither sends a client ID
// metadata document nor registers itself, and the MCP SDK's OAuth client provider kept in memory.
import { createClient } from '@latchkey/core';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { randomBytes } from 'node:crypto';
import type { InteropSystem } from './interop-support.ts';

/**
 * A public client (PC-01: no secret, PKCE required) owned by the interop user, with this
 * redirect URL. A loopback redirect without a port matches any port (PC-06), which is what an
 * MCP client's local callback server listens on.
 */
export async function registerPublicClient(interop: InteropSystem, redirectUri: string): Promise<string> {
  const { client } = await createClient(interop.system.db, interop.system.clock, {
    ownerId: interop.user.id,
    name: 'MCP Client',
    redirectUris: [redirectUri],
    public: true,
  });
  return client.id;
}

/**
 * The MCP SDK's OAuth client provider as a desktop MCP client implements it, in memory: PKCE
 * verifier and tokens kept here, and the authorization URL the SDK would open in the user's
 * browser captured for the test to drive. With a client id, a pre-registered client
 * (`clientInformation()` answers it, so the SDK neither registers one nor authenticates with a
 * secret); without one, `clientInformation()` answers nothing until the SDK has saved what it
 * settled on (a registration's answer, DR-09, or its metadata document URL, CM-11), kept in
 * `saved`.
 */
export class InMemoryOAuthClientProvider implements OAuthClientProvider {
  /** The last URL the SDK sent the user's browser to. */
  authorizationUrl: URL | undefined;
  /** The last `state` the SDK put in it. */
  lastState: string | undefined;
  /** Every client information the SDK saved. */
  readonly saved: OAuthClientInformationMixed[] = [];
  #clientInformation: OAuthClientInformationMixed | undefined;
  #tokens: OAuthTokens | undefined;
  #codeVerifier: string | undefined;

  readonly redirectUrl: string;

  constructor(clientId: string | undefined, redirectUrl: string) {
    this.#clientInformation = clientId === undefined ? undefined : { client_id: clientId };
    this.redirectUrl = redirectUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'MCP Client',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  state(): string {
    this.lastState = randomBytes(16).toString('base64url');
    return this.lastState;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.#clientInformation;
  }

  saveClientInformation(information: OAuthClientInformationMixed): void {
    this.#clientInformation = information;
    this.saved.push(information);
  }

  tokens(): OAuthTokens | undefined {
    return this.#tokens;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.#tokens = tokens;
  }

  redirectToAuthorization(authorizationUrl: URL): void {
    this.authorizationUrl = authorizationUrl;
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.#codeVerifier = codeVerifier;
  }

  codeVerifier(): string {
    if (this.#codeVerifier === undefined) throw new Error('no code verifier saved');
    return this.#codeVerifier;
  }
}
