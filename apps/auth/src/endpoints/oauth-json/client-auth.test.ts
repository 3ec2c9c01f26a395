import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { revokeClient } from '@latchkey/core';
import { digest } from '@latchkey/credentials';
import { makeClient, makeCode } from '#test/support/fixtures.ts';
import {
  basicAuth,
  exchangeCode,
  expectOAuthError,
  expectTokenResponse,
  postForm,
  tokenUrl,
  useTokenEndpoint,
} from './oauth-endpoint.fixture.ts';
import { alterChar } from '#test/support/tamper.ts';

// RFC 6749 §2.3.1 / OAuth 2.1 §2.4.1 client authentication at the token endpoint:
// CA-01..CA-06, CA-08 (CA-07 is in client-auth.rate-limit.test.ts), TK-09..TK-12.
const { system, user, app, other } = useTokenEndpoint({}, { userOwnsClients: true });

/** The code-exchange form without any client credentials. */
async function codeForm(): Promise<{ code: string; form: Record<string, string> }> {
  const code = await makeCode(system, app.client, user);
  return { code, form: { grant_type: 'authorization_code', code, redirect_uri: app.client.redirectUris[0]! } };
}

async function expectCodeStillRedeemable(code: string): Promise<void> {
  await expectTokenResponse(await exchangeCode(system, app, code));
}

describe('RFC 6749 §2.3.1 client authentication', () => {
  it('CA-01 client_id and client_secret in the form body authenticate (client_secret_post)', async () => {
    const { form } = await codeForm();
    await expectTokenResponse(
      await postForm(tokenUrl(system), { ...form, client_id: app.client.id, client_secret: app.clientSecret }),
    );
  });

  it('client_secret_basic authenticates, with or without a matching client_id in the body', async () => {
    const first = await codeForm();
    await expectTokenResponse(
      await postForm(tokenUrl(system), first.form, { authorization: basicAuth(app.client.id, app.clientSecret) }),
    );
    const second = await codeForm();
    await expectTokenResponse(
      await postForm(
        tokenUrl(system),
        { ...second.form, client_id: app.client.id },
        { authorization: basicAuth(app.client.id, app.clientSecret) },
      ),
    );
  });

  it('client_secret_basic form-decodes the id and secret (RFC 6749 §2.3.1) and takes the scheme in any case', async () => {
    const { form } = await codeForm();
    const percentEncoded = (value: string) => value.replace(/_/g, '%5F');
    const header = `bASIC ${Buffer.from(`${percentEncoded(app.client.id)}:${percentEncoded(app.clientSecret)}`).toString('base64')}`;
    await expectTokenResponse(await postForm(tokenUrl(system), form, { authorization: header }));
  });

  it('CA-02 TK-10 wrong secret, unknown client_id and revoked client get the same 401 invalid_client', async () => {
    const revoked = await makeClient(system, user, { name: 'Revoked App' });
    await revokeClient(system.db, system.clock, revoked.client.id);
    const { code, form } = await codeForm();
    const attempts = [
      { client_id: app.client.id, client_secret: other.clientSecret },
      { client_id: app.client.id, client_secret: alterChar(app.clientSecret, -1) },
      { client_id: 'lkc_unknownunknownunknown0', client_secret: app.clientSecret },
      { client_id: revoked.client.id, client_secret: revoked.clientSecret },
      { client_id: app.client.id, client_secret: 'not-even-a-secret' },
    ];
    const bodies: string[] = [];
    const headerShapes: string[] = [];
    for (const credentials of attempts) {
      const res = await postForm(tokenUrl(system), { ...form, ...credentials });
      const body = await expectOAuthError(res.clone(), 401, 'invalid_client', { wwwAuthenticate: null });
      bodies.push(JSON.stringify(body));
      // Same headers with the same values, apart from the date, the request id and the per-key rate-limit counters.
      const varying = new Set(['date', 'ratelimit', 'ratelimit-policy', 'x-request-id']);
      headerShapes.push(JSON.stringify([...res.headers].filter(([name]) => !varying.has(name))));
    }
    expect(new Set(headerShapes).size).toBe(1);
    expect(new Set(bodies).size).toBe(1);
    await expectCodeStillRedeemable(code);
  });

  it('CA-03 TK-11 Basic with a wrong secret is 401 invalid_client with WWW-Authenticate: Basic', async () => {
    const { code, form } = await codeForm();
    const res = await postForm(tokenUrl(system), form, { authorization: basicAuth(app.client.id, other.clientSecret) });
    await expectOAuthError(res, 401, 'invalid_client', { wwwAuthenticate: 'Basic realm="latchkey"' });
    const unknown = await postForm(tokenUrl(system), form, { authorization: basicAuth('lkc_nobody', 'lks_nothing') });
    await expectOAuthError(unknown, 401, 'invalid_client', { wwwAuthenticate: 'Basic realm="latchkey"' });
    await expectCodeStillRedeemable(code);
  });

  it('CA-04 TK-12 Basic and a body client_secret together are invalid_request, even when both are right', async () => {
    const { code, form } = await codeForm();
    const res = await postForm(
      tokenUrl(system),
      { ...form, client_id: app.client.id, client_secret: app.clientSecret },
      { authorization: basicAuth(app.client.id, app.clientSecret) },
    );
    await expectOAuthError(res, 400, 'invalid_request');
    await expectCodeStillRedeemable(code);
  });

  it('CA-05 client_secret in the URL query is not read: 401 invalid_client', async () => {
    const { code, form } = await codeForm();
    const url = `${tokenUrl(system)}?client_id=${app.client.id}&client_secret=${app.clientSecret}`;
    await expectOAuthError(await postForm(url, { ...form, client_id: app.client.id }), 401, 'invalid_client');
    await expectOAuthError(await postForm(url, form), 401, 'invalid_client');
    await expectCodeStillRedeemable(code);
    expect(system.logs.join('\n')).not.toContain(app.clientSecret); // RF-04: the query string is not logged either
  });

  it('CA-06 a body client_id other than the Basic client_id is invalid_request', async () => {
    const { code, form } = await codeForm();
    const res = await postForm(
      tokenUrl(system),
      { ...form, client_id: other.client.id },
      { authorization: basicAuth(app.client.id, app.clientSecret) },
    );
    await expectOAuthError(res, 400, 'invalid_request');
    await expectCodeStillRedeemable(code);
  });

  it('CA-08 secrets have 178 random bits, are stored as SHA-256 digests only, and one changed character fails', async () => {
    expect(app.clientSecret).toMatch(/^lks_[0-9A-Za-z]{36}$/);
    const rows = await system.db.selectFrom('clients').selectAll().execute();
    const secrets = await system.db.selectFrom('client_secrets').selectAll().execute();
    const dump = JSON.stringify([rows, secrets]);
    expect(dump).not.toContain(app.clientSecret);
    expect(dump).not.toContain(app.clientSecret.slice(4, 34));
    expect(secrets.find((row) => row.client_id === app.client.id)?.secret_hash).toBe(digest(app.clientSecret));
    const { code, form } = await codeForm();
    for (const index of [4, 20, app.clientSecret.length - 1]) {
      await expectOAuthError(
        await postForm(tokenUrl(system), { ...form, client_id: app.client.id, client_secret: alterChar(app.clientSecret, index) }),
        401,
        'invalid_client',
      );
    }
    await expectOAuthError(
      await postForm(tokenUrl(system), { ...form, client_id: app.client.id, client_secret: `${app.clientSecret}x` }),
      401,
      'invalid_client',
    );
    await expectCodeStillRedeemable(code);
  });

  it('TK-09 missing client credentials are 401 invalid_client; an id alone or a secret alone is not enough', async () => {
    const { code, form } = await codeForm();
    await expectOAuthError(await postForm(tokenUrl(system), form), 401, 'invalid_client');
    await expectOAuthError(
      await postForm(tokenUrl(system), { ...form, client_id: app.client.id }),
      401,
      'invalid_client',
    );
    await expectOAuthError(
      await postForm(tokenUrl(system), { ...form, client_secret: app.clientSecret }),
      401,
      'invalid_client',
    );
    await expectOAuthError(
      await postForm(tokenUrl(system), { ...form, client_id: app.client.id, client_secret: '' }),
      401,
      'invalid_client',
    );
    await expectCodeStillRedeemable(code);
  });

  it('a malformed Basic header is invalid_request', async () => {
    const { code, form } = await codeForm();
    const b64 = (value: string) => Buffer.from(value).toString('base64');
    for (const header of [
      'Basic',
      'Basic !!!',
      `Basic ${b64('no-colon')}`,
      `Basic ${b64(':secret-without-id')}`,
      `Basic ${b64('id%ZZ:secret')}`,
      `Basic ${Buffer.from([0xff, 0x3a, 0x61]).toString('base64')}`,
      `Basic ${b64('a:b')} extra`,
    ]) {
      await expectOAuthError(await postForm(tokenUrl(system), form, { authorization: header }), 400, 'invalid_request');
    }
    await expectCodeStillRedeemable(code);
  });

  it('two Authorization headers are invalid_request (Node would silently keep the first)', async () => {
    const { code, form } = await codeForm();
    const body = new URLSearchParams({ ...form, client_id: app.client.id, client_secret: app.clientSecret }).toString();
    const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(
        tokenUrl(system),
        {
          method: 'POST',
          // Raw header list (Node then adds no Host itself): two Authorization lines on the wire.
          headers: [
            'host',
            new URL(system.authUrl).host,
            'content-type',
            'application/x-www-form-urlencoded',
            'content-length',
            String(Buffer.byteLength(body)),
            'authorization',
            'Bearer first',
            'authorization',
            basicAuth(app.client.id, app.clientSecret),
          ],
        },
        (res) => {
          let data = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (data += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text: data }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
    expect(status).toBe(400);
    expect(JSON.parse(text)).toMatchObject({ error: 'invalid_request' });
    await expectCodeStillRedeemable(code);
  });

  it('D-2 an Authorization: Bearer header next to body credentials is ignored at the code exchange too', async () => {
    const { form } = await codeForm();
    const res = await postForm(
      tokenUrl(system),
      { ...form, client_id: app.client.id, client_secret: app.clientSecret },
      { authorization: 'Bearer lko_whatever' },
    );
    await expectTokenResponse(res);
  });

  it('D-2 other schemes are not client credentials either', async () => {
    const { code, form } = await codeForm();
    const res = await postForm(tokenUrl(system), form, { authorization: `Digest username="${app.client.id}"` });
    await expectOAuthError(res, 401, 'invalid_client', { wwwAuthenticate: null });
    await expectCodeStillRedeemable(code);
  });
});
