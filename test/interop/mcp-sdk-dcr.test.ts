// DR-09 (issue 32): the official MCP TypeScript SDK's client with nothing registered in advance,
// given only `{API_URL}/mcp`, with DYNAMIC_CLIENT_REGISTRATION=open. It gets the 401, reads the
// RFC 9728 and RFC 8414 documents, finds `registration_endpoint` and, having no client
// information and no client ID metadata document URL, registers itself (RFC 7591) as a public
// client; then signs the user in through the real pages with PKCE and calls `profile`.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { findClient } from '@latchkey/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInteropSystem, type InteropSystem } from './interop-support.ts';
import { InMemoryOAuthClientProvider } from './mcp-support.ts';

/** The MCP client's local callback; nothing needs to listen there: the test reads the redirect. */
const REDIRECT_URI = 'http://127.0.0.1:8765/callback';

describe('DR-09 MCP TypeScript SDK client registering itself (RFC 7591)', () => {
  let interop: InteropSystem;

  beforeAll(async () => {
    interop = await startInteropSystem({ DYNAMIC_CLIENT_REGISTRATION: 'open' });
  });
  afterAll(() => interop?.close());

  it('DR-09 with no pre-registered client it registers, signs in through the real pages with PKCE, and calls profile', async () => {
    const mcpUrl = new URL(`${interop.system.apiUrl}/mcp`);
    const provider = new InMemoryOAuthClientProvider(undefined, REDIRECT_URI);

    const first = new Client({ name: 'latchkey-interop-dcr', version: '1.0.0' });
    await expect(first.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }))).rejects.toThrow(
      UnauthorizedError,
    );

    // It registered itself: one public client, no owner, dynamic, at the redirect URL it gave.
    expect(provider.saved).toHaveLength(1);
    const registered = provider.saved[0]! as Record<string, unknown>;
    const clientId = registered.client_id as string;
    expect(clientId).toMatch(/^lkc_[0-9A-Za-z]{24}$/);
    expect(registered.client_secret).toBeUndefined();
    const client = await findClient(interop.system.db, clientId);
    expect(client).toMatchObject({
      ownerId: null,
      registration: 'dynamic',
      public: true,
      name: 'MCP Client',
      redirectUris: [REDIRECT_URI],
    });

    const authorizationUrl = provider.authorizationUrl;
    expect(authorizationUrl, 'the SDK sent the browser nowhere').toBeDefined();
    const sent = authorizationUrl!.searchParams;
    expect(authorizationUrl!.origin + authorizationUrl!.pathname).toBe(`${interop.system.authUrl}/oauth/authorize`);
    expect(sent.get('client_id')).toBe(clientId);
    expect(sent.get('code_challenge_method')).toBe('S256');
    expect(sent.getAll('resource')).toEqual([mcpUrl.href]);

    const callback = await interop.runBrowser(authorizationUrl!);
    expect(callback.origin + callback.pathname).toBe(REDIRECT_URI);
    expect(callback.searchParams.get('state')).toBe(provider.lastState);
    const code = callback.searchParams.get('code');
    expect(code).toBeTruthy();

    await new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }).finishAuth(code!);
    expect(provider.tokens()?.access_token).toBeTruthy();
    const mcp = new Client({ name: 'latchkey-interop-dcr', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
    try {
      const result = await mcp.callTool({ name: 'profile', arguments: {} });
      expect(result.isError ?? false).toBe(false);
      expect(JSON.stringify(result.content)).toContain('Katherine Johnson');
    } finally {
      await mcp.close();
    }
    // It registered once: the second connection used the saved client information.
    expect(provider.saved).toHaveLength(1);
    expect(await interop.profileName(provider.tokens()!.access_token)).toBe('Katherine Johnson');
  });
});
