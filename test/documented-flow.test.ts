// The documented interface (docs/integrating.md), byte for byte: the service's own documentation of the
// flow a third-party application runs — authorize, code exchange with the documented form
// body, a GraphQL call, and the documented refresh request that carries the access token as a
// Bearer header.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizeViaPages } from './support/browserless-flow.ts';
import { makeClient, makeUser } from './support/fixtures.ts';
import { startSystem, type TestSystem } from './support/system.ts';

let system: TestSystem;
let user: Awaited<ReturnType<typeof makeUser>>;
let clientId: string;
let clientSecret: string;
const redirectUri = 'https://client.example/callback';

beforeAll(async () => {
  system = await startSystem();
  user = await makeUser(system, 'Grace Hopper');
  const created = await makeClient(system, user, { redirectUri });
  clientId = created.client.id;
  clientSecret = created.clientSecret;
});
afterAll(() => system.close());

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

async function tokenRequest(body: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${system.authUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
    body,
  });
}

async function graphql(accessToken: string, body: string): Promise<Response> {
  return fetch(`${system.apiUrl}/graphql`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${accessToken}`, 'Content-Type': 'application/json' },
    body,
  });
}

describe('the documented flow', () => {
  it('authorize → code → token → /graphql → refresh with the Bearer header → /graphql', async () => {
    // 1. GET /oauth/authorize with client_id, response_type=code, redirect_uri and state.
    const state = 'af0ifjsldkj&x=1 +%';
    const redirect = await authorizeViaPages(system, { clientId, redirectUri, state, user });
    expect(redirect.location.startsWith(`${redirectUri}?`)).toBe(true);
    expect(redirect.state).toBe(state);
    expect(redirect.iss).toBe(system.authUrl);
    expect(redirect.code).toMatch(/^[A-Za-z0-9_-]{43}$/);

    // 2. POST /oauth/token, form-encoded, exactly the documented fields.
    const exchange = await tokenRequest(
      form({ client_id: clientId, client_secret: clientSecret, code: redirect.code!, grant_type: 'authorization_code', redirect_uri: redirectUri }),
    );
    expect(exchange.status).toBe(200);
    expect(exchange.headers.get('content-type')).toMatch(/^application\/json/);
    expect(exchange.headers.get('cache-control')).toBe('no-store');
    const tokens = (await exchange.json()) as Record<string, unknown>;
    // SC-03, SC-04: no `scope` was sent, so the client's default, named in the response.
    expect(Object.keys(tokens).sort()).toEqual(['access_token', 'expires_in', 'refresh_token', 'scope', 'token_type']);
    expect(tokens.scope).toBe('profile email');
    expect(tokens.token_type).toBe('Bearer');
    // The documented type: a string of decimal digits, in seconds; one year by default.
    expect(tokens.expires_in).toBe('31536000');
    expect(tokens.access_token).toMatch(/^lko_[0-9A-Za-z]{36}$/);
    expect(tokens.refresh_token).toMatch(/^lkr_[0-9A-Za-z]{36}$/);
    const accessToken = tokens.access_token as string;

    // 3. POST /graphql with the newline inside the query escaped.
    const profile = await graphql(accessToken, '{"query":"{\\n  profile {\\n    name\\n  }\\n}"}');
    expect(profile.status).toBe(200);
    expect(await profile.json()).toEqual({ data: { profile: { name: 'Grace Hopper' } } });

    // The same query with a raw newline inside the JSON string is invalid JSON: 400, JSON error.
    const raw = await graphql(accessToken, '{"query":"{\n  profile {\n    name\n  }\n}"}');
    expect(raw.status).toBe(400);
    const rawBody = (await raw.json()) as { errors: { message: string }[] };
    expect(rawBody.errors[0]!.message).toMatch(/json/i);

    // 4. The documented refresh: form fields plus `Authorization: Bearer <ACCESS_TOKEN>`.
    const refresh = await tokenRequest(
      form({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token as string, client_id: clientId, client_secret: clientSecret }),
      { Authorization: `Bearer ${accessToken}` },
    );
    expect(refresh.status).toBe(200);
    expect(refresh.headers.get('cache-control')).toBe('no-store');
    const refreshed = (await refresh.json()) as Record<string, string>;
    expect(refreshed.token_type).toBe('Bearer');
    expect(refreshed.expires_in).toMatch(/^\d+$/);
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect(refreshed.access_token).not.toBe(accessToken);

    const again = await graphql(refreshed.access_token!, '{"query":"{ profile { name } }"}');
    expect(await again.json()).toEqual({ data: { profile: { name: 'Grace Hopper' } } });
    // Rotation retires the previous access token (one live pair per grant).
    expect((await graphql(accessToken, '{"query":"{ profile { name } }"}')).status).toBe(401);
  });

  it('accepts client_secret_basic for the code exchange', async () => {
    const redirect = await authorizeViaPages(system, { clientId, redirectUri, user });
    const basic = Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString('base64');
    const exchange = await tokenRequest(form({ code: redirect.code!, grant_type: 'authorization_code', redirect_uri: redirectUri }), {
      Authorization: `Basic ${basic}`,
    });
    expect(exchange.status).toBe(200);
    const tokens = (await exchange.json()) as Record<string, string>;
    expect((await graphql(tokens.access_token!, '{"query":"{ profile { name } }"}')).status).toBe(200);
  });

  it('a second visit goes straight through; prompt=consent asks again', async () => {
    const first = await authorizeViaPages(system, { clientId, redirectUri, user });
    expect(first.code).toBeDefined();
    // Same browser, no prompt: no page at all, the redirect comes at once (D-9).
    const second = await fetch(
      `${system.authUrl}/oauth/authorize?${form({ client_id: clientId, response_type: 'code', redirect_uri: redirectUri })}`,
      { redirect: 'manual', headers: { cookie: first.jar.header() ?? '' } },
    );
    expect([302, 303]).toContain(second.status);
    expect(second.headers.get('location')).toMatch(new RegExp(`^${redirectUri.replace(/[.]/g, '\\.')}\\?code=`));
    const again = await fetch(
      `${system.authUrl}/oauth/authorize?${form({ client_id: clientId, response_type: 'code', redirect_uri: redirectUri, prompt: 'consent' })}`,
      { redirect: 'manual', headers: { cookie: first.jar.header() ?? '' } },
    );
    expect(again.status).toBe(200);
    const html = await again.text();
    expect(html).toContain('Allow');
    expect(html).toContain('Deny');
  });
});
