// CM-11 (issue 32): the official MCP TypeScript SDK's client with a client ID metadata document
// and nothing registered in advance, as VS Code, Claude Code and Codex connect today: given only
// `{API_URL}/mcp` and its `clientMetadataUrl`, it reads the metadata's
// `client_id_metadata_document_supported`, uses the document's URL as its client_id, and after
// the real sign-in and consent pages exchanges the code and calls `profile`. The SDK requires an
// https document URL, so the document is served over https on loopback with a certificate made
// for the run, which the authorization server is given to trust (AuthDeps.metadataDocumentCa).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startDocumentServer,
  type DocumentServer,
} from '../../apps/auth/src/authorization/metadata-document/metadata-document.fixture.ts';
import { makeSelfSignedCertificate } from '../support/tls.ts';
import { startInteropSystem, type InteropSystem } from './interop-support.ts';
import { InMemoryOAuthClientProvider } from './mcp-support.ts';

/** The MCP client's local callback; nothing needs to listen there: the test reads the redirect. */
const REDIRECT_URI = 'http://127.0.0.1:8765/callback';
const DOCUMENT_PATH = '/oauth/mcp-client.json';

/**
 * The provider of an MCP client that has no client_id of its own: `clientMetadataUrl` is its
 * document, and the client information the SDK settles on (the URL) is kept here.
 */
class MetadataDocumentProvider extends InMemoryOAuthClientProvider {
  readonly clientMetadataUrl: string;

  constructor(clientMetadataUrl: string, redirectUrl: string) {
    super(undefined, redirectUrl);
    this.clientMetadataUrl = clientMetadataUrl;
  }
}

describe('CM-11 MCP TypeScript SDK client with a client ID metadata document', () => {
  let interop: InteropSystem;
  let documents: DocumentServer;

  beforeAll(async () => {
    const tls = makeSelfSignedCertificate();
    documents = await startDocumentServer(tls);
    interop = await startInteropSystem({ CIMD_ALLOW_LOOPBACK: 'true' }, { metadataDocumentCa: tls.cert });
  });
  afterAll(async () => {
    await interop?.close();
    await documents?.close();
  });

  it('CM-11 given only {API_URL}/mcp and its document URL, signs in, lists the tools and calls profile', async () => {
    const documentUrl = documents.url(DOCUMENT_PATH);
    documents.serveJson(DOCUMENT_PATH, {
      client_id: documentUrl,
      client_name: 'MCP Document Client',
      redirect_uris: [REDIRECT_URI],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    });
    const mcpUrl = new URL(`${interop.system.apiUrl}/mcp`);
    const provider = new MetadataDocumentProvider(documentUrl, REDIRECT_URI);

    const first = new Client({ name: 'latchkey-interop', version: '1.0.0' });
    await expect(first.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }))).rejects.toThrow(
      UnauthorizedError,
    );
    const authorizationUrl = provider.authorizationUrl;
    expect(authorizationUrl, 'the SDK sent the browser nowhere').toBeDefined();
    // The SDK took the document's URL as its client_id: it registered nothing.
    expect(authorizationUrl!.searchParams.get('client_id')).toBe(documentUrl);
    expect(provider.clientInformation()?.client_id).toBe(documentUrl);
    expect(authorizationUrl!.searchParams.get('code_challenge_method')).toBe('S256');

    const callback = await interop.runBrowser(authorizationUrl!);
    expect(callback.origin + callback.pathname).toBe(REDIRECT_URI);
    expect(callback.searchParams.get('state')).toBe(provider.lastState);
    const code = callback.searchParams.get('code');
    expect(code).toBeTruthy();
    // The authorization server read the document, once, over https.
    expect(documents.requests(DOCUMENT_PATH)).toBe(1);

    await new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }).finishAuth(code!);
    expect(provider.tokens()?.access_token).toBeTruthy();
    const client = new Client({ name: 'latchkey-interop', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['profile']));
      const result = await client.callTool({ name: 'profile', arguments: {} });
      expect(result.isError ?? false).toBe(false);
      expect(JSON.stringify(result.content)).toContain('Katherine Johnson');
    } finally {
      await client.close();
    }
    const row = await interop.system.db
      .selectFrom('clients')
      .select(['registration', 'owner_id'])
      .where('id', '=', documentUrl)
      .executeTakeFirst();
    expect(row).toEqual({ registration: 'metadata_document', owner_id: null });
  });
});
