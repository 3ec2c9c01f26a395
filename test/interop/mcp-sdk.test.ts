// RS-20 (issue 31): the official MCP TypeScript SDK's client, given only `{API_URL}/mcp` and a
// pre-registered public client, as a desktop MCP client would be configured (docs/mcp.md). It
// gets the 401 with `resource_metadata`, reads the RFC 9728 document then the authorization
// server's RFC 8414 one, sends the user's browser to the authorization endpoint with PKCE S256
// and `resource`, and after the real sign-in and consent pages exchanges the code, lists the
// tools and calls `profile`.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInteropSystem, type InteropSystem } from './interop-support.ts';
import { InMemoryOAuthClientProvider, registerPublicClient } from './mcp-support.ts';

/** The MCP client's local callback; nothing needs to listen there: the test reads the redirect. */
const REDIRECT_URI = 'http://127.0.0.1:8765/callback';

describe('RS-20 MCP TypeScript SDK client with its OAuth client provider', () => {
  let interop: InteropSystem;
  let clientId: string;

  beforeAll(async () => {
    interop = await startInteropSystem();
    clientId = await registerPublicClient(interop, REDIRECT_URI);
  });
  afterAll(() => interop?.close());

  it('RS-20 signs in through the real pages with PKCE and resource, lists the tools and calls profile', async () => {
    const mcpUrl = new URL(`${interop.system.apiUrl}/mcp`);
    const provider = new InMemoryOAuthClientProvider(clientId, REDIRECT_URI);

    // No token yet: the 401 starts the SDK's discovery and authorization request.
    const first = new Client({ name: 'latchkey-interop', version: '1.0.0' });
    await expect(first.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }))).rejects.toThrow(
      UnauthorizedError,
    );
    const authorizationUrl = provider.authorizationUrl;
    expect(authorizationUrl, 'the SDK sent the browser nowhere').toBeDefined();
    const sent = authorizationUrl!.searchParams;
    expect(authorizationUrl!.origin + authorizationUrl!.pathname).toBe(`${interop.system.authUrl}/oauth/authorize`);
    expect(sent.get('client_id')).toBe(clientId);
    expect(sent.get('redirect_uri')).toBe(REDIRECT_URI);
    expect(sent.get('code_challenge_method')).toBe('S256');
    expect(sent.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // RFC 8707 `resource`, as the RFC 9728 document for /mcp names it (RS-13).
    expect(sent.getAll('resource')).toEqual([mcpUrl.href]);
    // The scopes the document lists (RFC 9728 `scopes_supported`), which the SDK asks for.
    expect(sent.get('scope')).toBe('profile email');

    // The user's browser: sign in, Allow, back to the client's callback.
    const callback = await interop.runBrowser(authorizationUrl!);
    expect(callback.origin + callback.pathname).toBe(REDIRECT_URI);
    expect(callback.searchParams.get('state')).toBe(provider.lastState);
    expect(callback.searchParams.get('iss')).toBe(interop.system.authUrl);
    const code = callback.searchParams.get('code');
    expect(code).toBeTruthy();

    // The code exchange (with the verifier and `resource`), then a fresh connection with the token.
    await new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }).finishAuth(code!);
    expect(provider.tokens()?.access_token).toBeTruthy();
    const client = new Client({ name: 'latchkey-interop', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['profile', 'graphql']));

      const result = await client.callTool({ name: 'profile', arguments: {} });
      expect(result.isError ?? false).toBe(false);
      expect(JSON.stringify(result.content)).toContain('Katherine Johnson');
    } finally {
      await client.close();
    }

    // One audience for the API's identifiers: the same token works at /graphql.
    expect(await interop.profileName(provider.tokens()!.access_token)).toBe('Katherine Johnson');
  });
});
