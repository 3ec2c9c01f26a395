import { describe, expect, it } from 'vitest';
import { LATCHKEY_API_AUDIENCE } from '@latchkey/contracts';
import { IdPrefix, issueAuthorizationCode, newId, normaliseResourceIndicator } from '@latchkey/core';
import { digest } from '@latchkey/credentials';
import {
  exchangeCode,
  expectOAuthError,
  expectTokenResponse,
  postForm,
  refreshWith,
  tokenUrl,
  useTokenEndpoint,
  type TokenResponse,
} from '../oauth-json/oauth-endpoint.fixture.ts';

// RFC 8707 §2.2 resource indicators at the token endpoint (issue 31): RS-02, RS-04, RS-05.
const { system, user, app } = useTokenEndpoint();

let servers = 0;
/** A resource server as `resource create` registers it, with a URI of its own (a row; its id is the audience). */
async function registerServer(name = 'Weather Service'): Promise<{ id: string; uri: string }> {
  servers += 1;
  const id = newId(IdPrefix.resourceServer);
  const uri = normaliseResourceIndicator(`https://rs${servers}.example.test/api`)!;
  await system.db
    .insertInto('resource_servers')
    .values({ id, uri, name, scope: 'profile email', created_at: system.clock.now(), revoked_at: null })
    .execute();
  return { id, uri };
}

/** A code as /oauth/authorize issues it for this audience (the Latchkey API when undefined). */
function codeFor(audience?: string): Promise<string> {
  return issueAuthorizationCode(system.db, system.clock, {
    client: app.client,
    userId: user.id,
    redirectUri: app.client.redirectUris[0]!,
    codeChallenge: null,
    audience,
  });
}

async function audienceOf(accessToken: string): Promise<string> {
  const row = await system.db
    .selectFrom('access_tokens')
    .select('audience')
    .where('token_hash', '=', digest(accessToken))
    .executeTakeFirstOrThrow();
  return row.audience;
}

async function graphqlStatus(accessToken: string): Promise<number> {
  const res = await fetch(`${system.apiUrl}/graphql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ profile { name } }' }),
  });
  return res.status;
}

async function expectInvalidTarget(res: Response): Promise<void> {
  const body = await expectOAuthError(res, 400, 'invalid_target');
  expect(body.error_description ?? '').not.toContain('marker');
}

describe("RS-04 resource at the code exchange names the code's resource server", () => {
  it('RS-04 another resource, the API, an unknown or malformed one: 400 invalid_target, and the code still redeems with the right one', async () => {
    const server = await registerServer();
    const other = await registerServer('Other Service');
    const code = await codeFor(server.id);
    for (const resource of [
      other.uri,
      system.apiUrl,
      `${system.apiUrl}/mcp`,
      'https://unknown-marker.example/api',
      `${server.uri}#marker`,
      'urn:marker',
    ]) {
      await expectInvalidTarget(await exchangeCode(system, app, code, { resource }));
    }
    // Normalised alike: the host's case does not matter.
    const tokens = await expectTokenResponse(
      await exchangeCode(system, app, code, { resource: server.uri.replace('rs', 'RS') }),
    );
    expect(await audienceOf(tokens.access_token)).toBe(server.id);
  });

  it("RS-04 omitted: the code's own audience", async () => {
    const server = await registerServer();
    const tokens = await expectTokenResponse(await exchangeCode(system, app, await codeFor(server.id)));
    expect(await audienceOf(tokens.access_token)).toBe(server.id);
  });

  it("RS-04 an API code with any API identifier: a token for the API that works at /graphql; a server's URI is refused first", async () => {
    const server = await registerServer();
    const code = await codeFor();
    await expectInvalidTarget(await exchangeCode(system, app, code, { resource: server.uri }));
    const tokens = await expectTokenResponse(
      await exchangeCode(system, app, code, { resource: `${system.apiUrl}/graphql` }),
    );
    expect(await audienceOf(tokens.access_token)).toBe(LATCHKEY_API_AUDIENCE);
    expect(await graphqlStatus(tokens.access_token)).toBe(200);
  });

  it('RS-02 resource twice at the code exchange: 400 invalid_target, and the code still redeems', async () => {
    const code = await codeFor();
    const form = new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: app.client.redirectUris[0]!,
      client_id: app.client.id,
      client_secret: app.clientSecret,
    });
    form.append('resource', system.apiUrl);
    form.append('resource', system.apiUrl);
    await expectInvalidTarget(await postForm(tokenUrl(system), form));
    await expectTokenResponse(await exchangeCode(system, app, code));
  });
});

describe("RS-05 resource at a refresh names the grant's resource server, never another", () => {
  async function pairFor(audience?: string): Promise<TokenResponse> {
    return expectTokenResponse(await exchangeCode(system, app, await codeFor(audience)));
  }

  it("RS-05 the grant's resource works; another is invalid_target and the refresh token stays usable", async () => {
    const server = await registerServer();
    const other = await registerServer('Other Service');
    const first = await pairFor(server.id);
    const second = await expectTokenResponse(
      await refreshWith(system, app, first.refresh_token, { extra: { resource: server.uri } }),
    );
    expect(await audienceOf(second.access_token)).toBe(server.id);
    for (const resource of [other.uri, system.apiUrl, 'https://unknown-marker.example/api', 'urn:marker']) {
      await expectInvalidTarget(await refreshWith(system, app, second.refresh_token, { extra: { resource } }));
    }
    // Nothing was consumed: the same refresh token still rotates, omitted resource meaning the grant's.
    const third = await expectTokenResponse(await refreshWith(system, app, second.refresh_token));
    expect(await audienceOf(third.access_token)).toBe(server.id);
  });

  it("RS-05 an API grant refreshes with any of the API identifiers; a server's URI is refused", async () => {
    const server = await registerServer();
    let pair = await pairFor();
    await expectInvalidTarget(await refreshWith(system, app, pair.refresh_token, { extra: { resource: server.uri } }));
    for (const resource of [system.apiUrl, `${system.apiUrl}/graphql`, `${system.apiUrl}/mcp`]) {
      pair = await expectTokenResponse(await refreshWith(system, app, pair.refresh_token, { extra: { resource } }));
      expect(await audienceOf(pair.access_token)).toBe(LATCHKEY_API_AUDIENCE);
    }
    expect(await graphqlStatus(pair.access_token)).toBe(200);
  });

  it('RS-02 resource twice at a refresh: 400 invalid_target, and the refresh token stays usable', async () => {
    const pair = await pairFor();
    const form = new URLSearchParams({
      grant_type: 'refresh_token',
      refresh_token: pair.refresh_token,
      client_id: app.client.id,
      client_secret: app.clientSecret,
    });
    form.append('resource', system.apiUrl);
    form.append('resource', `${system.apiUrl}/mcp`);
    await expectInvalidTarget(await postForm(tokenUrl(system), form));
    await expectTokenResponse(await refreshWith(system, app, pair.refresh_token));
  });

  it("RS-05 a revoked resource server's URI is invalid_target", async () => {
    const server = await registerServer();
    const pair = await pairFor(server.id);
    await system.db
      .updateTable('resource_servers')
      .set({ revoked_at: system.clock.now() })
      .where('id', '=', server.id)
      .execute();
    await expectInvalidTarget(await refreshWith(system, app, pair.refresh_token, { extra: { resource: server.uri } }));
  });
});
