import { describe, expect, it } from 'vitest';
import { loadConfig } from '@latchkey/config';
import { makeClient, useUsers } from '#test/support/fixtures.ts';
import { perFile } from '#test/support/per-file.ts';
import { useSystem } from '#test/support/system.ts';
import { capturingLogger, startStandaloneApi } from '../testing/api-server.ts';

// RS-13: RFC 9728 protected-resource metadata for the API and its /graphql and /mcp endpoints,
// over real HTTP.

const SPA = 'https://spa.example';
const system = useSystem();
const { user } = useUsers(system, { user: 'Grace Hopper' });
perFile(async () => ({ client: (await makeClient(system, user, { redirectUris: [`${SPA}/callback`] })).client }));

const WELL_KNOWN = '/.well-known/oauth-protected-resource';
const NOT_FOUND = { errors: [{ message: 'Not found', extensions: { code: 'NOT_FOUND' } }] };

const DOCUMENTS = [
  ['', 'Latchkey API'],
  ['/graphql', 'Latchkey API GraphQL endpoint'],
  ['/mcp', 'Latchkey API MCP endpoint'],
] as const;

function get(path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${system.apiUrl}${path}`, init);
}

describe('RS-13 protected-resource metadata (RFC 9728)', () => {
  it.each(DOCUMENTS)(
    'RS-13 %s: resource is exactly the identifier, with the authorization server, scopes, header tokens, name and documentation',
    async (path, name) => {
      const response = await get(`${WELL_KNOWN}${path}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(response.headers.get('cache-control')).toBe('public, max-age=3600');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(await response.json()).toEqual({
        resource: `${system.apiUrl}${path}`,
        authorization_servers: [system.authUrl],
        scopes_supported: ['profile', 'email'],
        bearer_methods_supported: ['header'],
        resource_name: name,
        resource_documentation: `${system.config.portal.url}/`,
      });
    },
  );

  it('RS-13 the authorization server named is the issuer of its RFC 8414 document, which lists the scopes offered', async () => {
    const metadata = await (await get(`${WELL_KNOWN}/mcp`)).json();
    const issuer = metadata.authorization_servers[0];
    const server = await (await fetch(`${issuer}/.well-known/oauth-authorization-server`)).json();
    expect(server.issuer).toBe(issuer);
    expect(server.scopes_supported).toEqual(expect.arrayContaining(metadata.scopes_supported));
  });

  it('RS-13 HEAD: the GET headers, Content-Length included, and no body; a query string changes nothing', async () => {
    const viaGet = await get(`${WELL_KNOWN}/graphql`);
    const body = await viaGet.text();
    const head = await get(`${WELL_KNOWN}/graphql`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(body)));
    expect(head.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(head.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await head.text()).toBe('');
    expect(await (await get(`${WELL_KNOWN}/graphql?x=1`)).text()).toBe(body);
  });

  it('RS-13 any other method: 405 with Allow: GET, HEAD, in the JSON error shape', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
      const response = await get(WELL_KNOWN, { method });
      expect(response.status, method).toBe(405);
      expect(response.headers.get('allow'), method).toBe('GET, HEAD');
      expect(response.headers.get('cache-control'), method).toBe('no-store');
      expect(await response.json(), method).toEqual({
        errors: [{ message: 'Method not allowed', extensions: { code: 'METHOD_NOT_ALLOWED' } }],
      });
    }
  });

  it('RS-13 any other document: 404 in the JSON error shape', async () => {
    for (const path of ['/other', '/graphql/', '/mcp/x', '/', '/GRAPHQL', '/healthz', '%2Fgraphql', '/graphql%00']) {
      const response = await get(`${WELL_KNOWN}${path}`);
      expect(response.status, path).toBe(404);
      expect(response.headers.get('cache-control'), path).toBe('no-store');
      expect(await response.json(), path).toEqual(NOT_FOUND);
    }
    const beside = await get(`${WELL_KNOWN}-graphql`);
    expect(beside.status).toBe(404);
    expect(await beside.json()).toEqual(NOT_FOUND);
  });

  it('RS-13 CORS like /graphql (PC-07): an allowed origin may read it, after a preflight if it wants one; others get no Access-Control-Allow-Origin', async () => {
    const allowed = await get(WELL_KNOWN, { headers: { origin: SPA } });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(SPA);
    expect(allowed.headers.get('access-control-allow-credentials')).toBeNull();
    expect(allowed.headers.get('vary')?.split(/\s*,\s*/)).toContain('Origin');

    const preflight = await get(`${WELL_KNOWN}/mcp`, {
      method: 'OPTIONS',
      headers: { origin: SPA, 'access-control-request-method': 'GET' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(SPA);
    expect(preflight.headers.get('access-control-allow-methods')).toBe('GET');

    const other = await get(WELL_KNOWN, { headers: { origin: 'https://evil.example' } });
    expect(other.status).toBe(200);
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    expect(other.headers.get('vary')?.split(/\s*,\s*/)).toContain('Origin');
  });

  it("RS-13 an API_URL with a path: the documents sit under the origin's well-known prefix, then that path (RFC 9728 §3)", async () => {
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: system.dataDir,
      LOG_LEVEL: 'silent',
      API_URL: 'https://example.test/latchkey',
      AUTH_URL: system.authUrl,
    });
    const api = await startStandaloneApi({
      config,
      db: system.db,
      clock: system.clock,
      logger: capturingLogger().logger,
    });
    try {
      for (const path of ['', '/graphql', '/mcp']) {
        const response = await fetch(`${api.url}${WELL_KNOWN}/latchkey${path}`);
        expect(response.status, path).toBe(200);
        expect((await response.json()).resource, path).toBe(`https://example.test/latchkey${path}`);
      }
      expect((await fetch(`${api.url}${WELL_KNOWN}/graphql`)).status).toBe(404);
      expect((await fetch(`${api.url}${WELL_KNOWN}`)).status).toBe(404);
      // A /graphql challenge names the document that says so.
      const challenge = (await fetch(`${api.url}/graphql`, { method: 'POST' })).headers.get('www-authenticate');
      expect(challenge).toBe(
        `Bearer realm="api", resource_metadata="https://example.test${WELL_KNOWN}/latchkey/graphql"`,
      );
    } finally {
      await api.stop();
      await api.app.close();
    }
  });
});
