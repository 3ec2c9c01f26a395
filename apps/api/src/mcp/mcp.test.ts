import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createPersonalAccessToken } from '@latchkey/core';
import { anOutage } from '#test/support/faults.ts';
import { makeAccessToken, makeClient, makePat, makeResourceServer, useUsers } from '#test/support/fixtures.ts';
import { perFile } from '#test/support/per-file.ts';
import { useSystem } from '#test/support/system.ts';
import { BODY_LIMIT_BYTES } from '../graphql/graphql.router.ts';
import { LIMITS } from '../graphql/validation-rules.ts';

// RS-16..RS-19 and RS-06 at /mcp, over real HTTP on SQLite and PostgreSQL, driven by the MCP SDK's
// own client where a client would be used, and by fetch where the request must be malformed.

const SPA = 'https://spa.example';
const system = useSystem();
const { user } = useUsers(system, { user: 'Grace Hopper' });
const { tokens } = perFile(async () => {
  // Registers SPA as an allowed browser-app origin (PC-07).
  await makeClient(system, user, { redirectUris: [`${SPA}/callback`] });
  const pat = (scopes: Array<'profile' | 'email'>) =>
    createPersonalAccessToken(system.db, system.clock, system.config.tokenTtlSeconds, {
      userId: user.id,
      name: scopes.join(' '),
      scopes,
    }).then(({ token }) => token);
  return {
    tokens: { full: await makePat(system, user), profileOnly: await pat(['profile']), emailOnly: await pat(['email']) },
  };
});

const mcpUrl = (): string => `${system.apiUrl}/mcp`;

/** The MCP SDK's client, connected (initialize + initialized) with `token` as a bearer token. */
async function connect(token: string): Promise<Client> {
  const client = new Client({ name: 'latchkey-mcp-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(mcpUrl()), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return client;
}

async function withClient<T>(token: string, use: (client: Client) => Promise<T>): Promise<T> {
  const client = await connect(token);
  try {
    return await use(client);
  } finally {
    await client.close();
  }
}

async function callTool(token: string, name: string, args?: Record<string, unknown>): Promise<CallToolResult> {
  return withClient(
    token,
    async (client) => (await client.callTool({ name, arguments: args ?? {} })) as CallToolResult,
  );
}

function textOf(result: CallToolResult): string {
  return result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
}

interface RawAnswer {
  status: number;
  headers: Headers;
  json: any;
}

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
};

/** One HTTP request to /mcp as a hand-written client would make it (initialize by default). */
async function rawMcp(call: {
  token?: string;
  method?: string;
  body?: string;
  headers?: Record<string, string>;
}): Promise<RawAnswer> {
  const method = call.method ?? 'POST';
  const response = await fetch(mcpUrl(), {
    method,
    headers: {
      accept: 'application/json, text/event-stream',
      ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
      ...(call.token !== undefined ? { authorization: `Bearer ${call.token}` } : {}),
      ...call.headers,
    },
    ...(method === 'POST' ? { body: call.body ?? JSON.stringify(INITIALIZE) } : {}),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, json };
}

function expectNoStore(answer: RawAnswer): void {
  expect(answer.headers.get('cache-control')).toBe('no-store');
  expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
}

const metadataUrl = (): string => `${system.apiUrl}/.well-known/oauth-protected-resource/mcp`;

describe('RS-16 the MCP endpoint: Streamable HTTP, stateless, JSON answers', () => {
  it('RS-16 the MCP SDK client initializes with a bearer token and lists the profile and graphql tools', async () => {
    await withClient(tokens.full, async (client) => {
      expect(client.getServerVersion()?.name).toBe('latchkey');
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(['graphql', 'profile']);
      const graphql = tools.find((tool) => tool.name === 'graphql')!;
      expect(graphql.inputSchema.required).toEqual(['query']);
      expect(Object.keys(graphql.inputSchema.properties ?? {}).sort()).toEqual(['operationName', 'query', 'variables']);
      expect(graphql.annotations?.readOnlyHint).toBe(true);
    });
  });

  it('RS-16 initialize answers JSON (no SSE) with no session id, and nothing a cache may keep', async () => {
    const answer = await rawMcp({ token: tokens.full });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(answer.headers.get('mcp-session-id')).toBeNull();
    expect(answer.json.result.serverInfo.name).toBe('latchkey');
    expect(answer.json.result.capabilities.tools).toBeDefined();
    expectNoStore(answer);
  });

  it('RS-16 stateless: tools/list and tools/call on their own, with no session (the curl example of docs/mcp.md)', async () => {
    const headers = { 'mcp-protocol-version': '2025-06-18' };
    const list = await rawMcp({
      token: tokens.full,
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    expect(list.status).toBe(200);
    expect(list.json.result.tools.map((tool: { name: string }) => tool.name).sort()).toEqual(['graphql', 'profile']);
    const call = await rawMcp({
      token: tokens.full,
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'profile', arguments: {} } }),
    });
    expect(call.status).toBe(200);
    expect(call.json.result.structuredContent.name).toBe('Grace Hopper');
  });

  it('RS-16 RS-14 without a token: 401 whose challenge points at the /mcp metadata document, no error attribute', async () => {
    const answer = await rawMcp({});
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toBe(`Bearer realm="api", resource_metadata="${metadataUrl()}"`);
    expect(answer.json.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    expectNoStore(answer);
  });

  it('RS-16 an unknown token: 401 invalid_token with resource_metadata', async () => {
    const answer = await rawMcp({ token: 'lkp_notavalidtokenatall' });
    expect(answer.status).toBe(401);
    const challenge = answer.headers.get('www-authenticate')!;
    expect(challenge).toContain('error="invalid_token"');
    expect(challenge).toContain(`resource_metadata="${metadataUrl()}"`);
  });

  it('RS-06 a token issued for another resource server is 401 invalid_token at /mcp, and the same user with an API token is answered', async () => {
    const { client } = await makeClient(system, user, { redirectUri: 'https://agent.example/cb' });
    const server = await makeResourceServer(system, 'Other API');
    const foreign = await makeAccessToken(system, client, user, { audience: server.id });
    const answer = await rawMcp({ token: foreign });
    expect(answer.status).toBe(401);
    const challenge = answer.headers.get('www-authenticate')!;
    expect(challenge).toMatch(/^Bearer realm="api", error="invalid_token"/);
    expect(challenge).toContain(`resource_metadata="${metadataUrl()}"`);
    expect(answer.json.result).toBeUndefined();
    // The SDK's client is refused as well: it never gets to initialize.
    await expect(connect(foreign)).rejects.toThrow();
    expect((await rawMcp({ token: tokens.full })).status).toBe(200);
  });

  it('RS-16 GET, DELETE and PUT are 405 with Allow: POST, in the API error shape', async () => {
    for (const method of ['GET', 'DELETE', 'PUT']) {
      const answer = await rawMcp({ method, token: tokens.full, ...(method === 'PUT' ? { body: '{}' } : {}) });
      expect(answer.status, method).toBe(405);
      expect(answer.headers.get('allow'), method).toBe('POST');
      expect(answer.json.errors[0].extensions.code, method).toBe('METHOD_NOT_ALLOWED');
    }
  });

  it('RS-16 a body over the /graphql limit is 413 and never reaches the SDK', async () => {
    const padding = 'x'.repeat(BODY_LIMIT_BYTES);
    const body = JSON.stringify({ ...INITIALIZE, params: { ...INITIALIZE.params, padding } });
    const answer = await rawMcp({ token: tokens.full, body });
    expect(answer.status).toBe(413);
    expect(answer.json.errors[0].extensions.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it("RS-16 a body that is not JSON gets the SDK's JSON-RPC parse error, 400 code -32700", async () => {
    const answer = await rawMcp({ token: tokens.full, body: '{"jsonrpc": "2.0", "id": 1, "method": ' });
    expect(answer.status).toBe(400);
    expect(answer.json.jsonrpc).toBe('2.0');
    expect(answer.json.error.code).toBe(-32700);
    expect(answer.json.id).toBeNull();
  });

  it('RS-16 D-10 when the token cannot be checked: 503 with Retry-After, never 401', async () => {
    system.faults.failEveryQuery(anOutage);
    try {
      const answer = await rawMcp({ token: tokens.full });
      expect(answer.status).toBe(503);
      expect(answer.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(answer.headers.get('www-authenticate')).toBeNull();
      expect(answer.json.errors[0].extensions.code).toBe('SERVICE_UNAVAILABLE');
    } finally {
      system.faults.clear();
    }
  });
});

describe('RS-17 browser origins at /mcp (DNS rebinding)', () => {
  it('RS-17 an Origin that is not an allowed browser app is 403, even with a valid token', async () => {
    for (const origin of ['https://evil.example', 'null', `${SPA}.evil.example`]) {
      const answer = await rawMcp({ token: tokens.full, headers: { origin } });
      expect(answer.status, origin).toBe(403);
      expect(answer.json.errors[0].extensions.code, origin).toBe('FORBIDDEN');
      expect(answer.headers.get('access-control-allow-origin'), origin).toBeNull();
    }
  });

  it('RS-17 the 403 comes before the token check and the method: no token, GET', async () => {
    expect((await rawMcp({ headers: { origin: 'https://evil.example' } })).status).toBe(403);
    expect((await rawMcp({ method: 'GET', headers: { origin: 'https://evil.example' } })).status).toBe(403);
  });

  it('RS-17 an allowed browser app (a registered redirect origin) is answered, with CORS headers', async () => {
    const answer = await rawMcp({ token: tokens.full, headers: { origin: SPA } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('access-control-allow-origin')).toBe(SPA);
    expect(answer.json.result.serverInfo.name).toBe('latchkey');
  });
});

describe('RS-18 the profile tool', () => {
  it('RS-18 with profile and email: id, name and email, as structured content and as text', async () => {
    const result = await callTool(tokens.full, 'profile');
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ id: user.id, name: 'Grace Hopper', email: user.email });
    expect(textOf(result)).toContain('Name: Grace Hopper');
    expect(textOf(result)).toContain(`Email: ${user.email}`);
  });

  it('RS-18 with profile only: id and name, never the email', async () => {
    const result = await callTool(tokens.profileOnly, 'profile');
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ id: user.id, name: 'Grace Hopper' });
    expect(textOf(result)).toBe(`Name: Grace Hopper\nID: ${user.id}`);
    expect(JSON.stringify(result)).not.toContain(user.email);
  });

  it('RS-18 with email only: the email, never the id or name', async () => {
    const result = await callTool(tokens.emailOnly, 'profile');
    expect(result.structuredContent).toEqual({ email: user.email });
    expect(JSON.stringify(result)).not.toContain('Grace Hopper');
    expect(JSON.stringify(result)).not.toContain(user.id);
  });
});

describe('RS-19 the graphql tool', () => {
  it('RS-19 runs a query as the caller: { profile { name } }', async () => {
    const result = await callTool(tokens.full, 'graphql', { query: '{ profile { name } }' });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ data: { profile: { name: 'Grace Hopper' } } });
    expect(JSON.parse(textOf(result))).toEqual({ profile: { name: 'Grace Hopper' } });
  });

  it('RS-19 variables and operationName pick the operation, as at /graphql', async () => {
    const query = 'query A { profile { name } } query B($skip: Boolean!) { profile { id name @skip(if: $skip) } }';
    const result = await callTool(tokens.full, 'graphql', { query, operationName: 'B', variables: { skip: true } });
    expect(result.structuredContent).toEqual({ data: { profile: { id: user.id } } });
  });

  it('RS-19 a mutation or a subscription is refused as a tool error, and nothing runs', async () => {
    for (const query of ['mutation { profile { name } }', 'subscription { profile { name } }']) {
      const result = await callTool(tokens.full, 'graphql', { query });
      expect(result.isError, query).toBe(true);
      expect(textOf(result), query).toMatch(/^Only queries run here; this is a (mutation|subscription)\.$/);
      expect(result.structuredContent, query).toBeUndefined();
    }
  });

  it('RS-19 per-field scopes: email with a profile-only token is a tool error naming the missing scope, with no data', async () => {
    const result = await callTool(tokens.profileOnly, 'graphql', { query: '{ profile { name email } }' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe('The access token lacks the scope this query needs: email.');
    expect(JSON.stringify(result)).not.toContain(user.email);
  });

  it("RS-19 the API's validation rules and limits: syntax, unknown fields, aliases, tokens", async () => {
    const aliases = (n: number): string =>
      `{ ${Array.from({ length: n }, (_, i) => `a${i}: profile { name }`).join(' ')} }`;
    const cases: Array<[string, RegExp]> = [
      ['{ profile { name }', /Syntax Error/],
      ['{ profile { nickname } }', /Cannot query field "nickname"/],
      [aliases(LIMITS.maxAliases + 1), new RegExp(`Aliases limit of ${LIMITS.maxAliases} exceeded`)],
      [aliases(1000), /Document contains more tha[nt]/],
    ];
    for (const [query, message] of cases) {
      const result = await callTool(tokens.full, 'graphql', { query });
      expect(result.isError, query).toBe(true);
      expect(textOf(result), query).toMatch(message);
    }
  });

  it('RS-19 input the tool does not take is refused by the SDK: no query', async () => {
    await withClient(tokens.full, async (client) => {
      const outcome = await client.callTool({ name: 'graphql', arguments: {} }).then(
        (result) => (result as CallToolResult).isError === true,
        () => true,
      );
      expect(outcome).toBe(true);
    });
  });
});
