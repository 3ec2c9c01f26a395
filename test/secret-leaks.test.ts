// TS-01 and RF-04: after a full flow, neither the database (SQLite files, PostgreSQL rows) nor the servers' log output
// contain any issued token, code, client secret or password in plaintext.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizeViaPages } from './support/browserless-flow.ts';
import { makeClient, makePat, makeUser, pkcePair } from './support/fixtures.ts';
import { startSystem, type TestSystem } from './support/system.ts';

let system: TestSystem;
const secrets: Record<string, string> = {};

beforeAll(async () => {
  system = await startSystem();
  const user = await makeUser(system);
  secrets.password = user.password;
  const redirectUri = 'https://client.example/cb';
  const { client, clientSecret } = await makeClient(system, user, { redirectUri });
  secrets.clientSecret = clientSecret;
  secrets.pat = await makePat(system, user);
  const { verifier, challenge } = pkcePair();
  secrets.codeVerifier = verifier;

  const redirect = await authorizeViaPages(system, { clientId: client.id, redirectUri, codeChallenge: challenge, user, state: 'leak-check' });
  secrets.code = redirect.code!;
  const post = (path: string, body: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(`${system.authUrl}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(body),
    });
  const first = (await (
    await post('/oauth/token', {
      grant_type: 'authorization_code',
      code: secrets.code,
      redirect_uri: redirectUri,
      client_id: client.id,
      client_secret: clientSecret,
      code_verifier: verifier,
    })
  ).json()) as Record<string, string>;
  secrets.accessToken = first.access_token!;
  secrets.refreshToken = first.refresh_token!;
  const second = (await (
    await post(
      '/oauth/token',
      { grant_type: 'refresh_token', refresh_token: secrets.refreshToken, client_id: client.id, client_secret: clientSecret },
      { Authorization: `Bearer ${secrets.accessToken}` },
    )
  ).json()) as Record<string, string>;
  secrets.accessToken2 = second.access_token!;
  secrets.refreshToken2 = second.refresh_token!;
  for (const token of [secrets.pat, secrets.accessToken, secrets.accessToken2, 'lkp_garbage']) {
    await fetch(`${system.apiUrl}/graphql?access_token=${token}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ query: '{ profile { name } }' }),
    });
  }
  // A replayed code and a reused refresh token exercise the error paths' logging too.
  await post('/oauth/token', { grant_type: 'authorization_code', code: secrets.code, redirect_uri: redirectUri, client_id: client.id, client_secret: clientSecret });
  await post('/oauth/token', { grant_type: 'refresh_token', refresh_token: secrets.refreshToken, client_id: client.id, client_secret: `${clientSecret}x` });
  await post('/oauth/revoke', { token: secrets.refreshToken2, client_id: client.id, client_secret: clientSecret });
});
afterAll(() => system.close());

describe('secrets at rest and in logs', () => {
  it('TS-01 the database contains no token, code, client secret or password', async () => {
    // SQLite: the main file and its write-ahead log, byte for byte; PostgreSQL: every row of every table as text.
    const bytes = await system.databaseText();
    expect(bytes.length).toBeGreaterThan(1_000);
    // Sanity: the digest of a token is there, so the search would find a plaintext copy.
    expect(bytes).toContain(secrets.pat!.slice(-4));
    for (const [name, value] of Object.entries(secrets)) {
      expect(bytes.includes(value), `${name} found in the database`).toBe(false);
    }
  });

  it('RF-04 the log output contains no token, code, verifier, client secret or password', () => {
    const log = system.logs.join('\n');
    expect(system.logs.length).toBeGreaterThan(5);
    expect(log).toContain('/oauth/token');
    for (const [name, value] of Object.entries(secrets)) {
      expect(log.includes(value), `${name} found in the logs`).toBe(false);
    }
    expect(log).not.toMatch(/lk[pors]_[0-9A-Za-z]{36}/);
  });
});
