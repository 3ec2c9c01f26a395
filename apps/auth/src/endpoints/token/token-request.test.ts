import { describe, expect, it } from 'vitest';
import { makeCode } from '#test/support/fixtures.ts';
import {
  countRows,
  exchangeCode,
  expectOAuthError,
  expectTokenResponse,
  postForm,
  tokenUrl,
  useTokenEndpoint,
} from '../oauth-json/oauth-endpoint.fixture.ts';

// Requests that are wrong before any grant rule applies: TK-01..TK-08, P-01..P-04.
const { system, user, app } = useTokenEndpoint({}, { userOwnsClients: true });

/** A fresh code and the full documented form for it. */
async function validForm(): Promise<{ code: string; form: Record<string, string> }> {
  const code = await makeCode(system, app.client, user);
  return {
    code,
    form: {
      grant_type: 'authorization_code',
      code,
      redirect_uri: app.client.redirectUris[0]!,
      client_id: app.client.id,
      client_secret: app.clientSecret,
    },
  };
}

/** Side effect check: the rejected request consumed nothing, so the code still redeems. */
async function expectCodeStillRedeemable(code: string): Promise<void> {
  await expectTokenResponse(await exchangeCode(system, app, code));
}

describe('RFC 6749 §3.2 token endpoint request format', () => {
  it('TK-01 a JSON body is invalid_request, not a crash on an undefined body', async () => {
    const { code, form } = await validForm();
    const res = await fetch(tokenUrl(system), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(form),
    });
    await expectOAuthError(res, 400, 'invalid_request');
    await expectCodeStillRedeemable(code);
  });

  it('TK-02 no Content-Type, text/plain and multipart/form-data are invalid_request', async () => {
    const { code, form } = await validForm();
    const encoded = new URLSearchParams(form).toString();
    const noType = await fetch(tokenUrl(system), { method: 'POST', body: new TextEncoder().encode(encoded) });
    expect(noType.headers.get('content-type')).toMatch(/json/);
    await expectOAuthError(noType, 400, 'invalid_request');
    // fetch with a string body sends text/plain;charset=UTF-8 (TK-02).
    await expectOAuthError(await fetch(tokenUrl(system), { method: 'POST', body: encoded }), 400, 'invalid_request');
    const multipart = new FormData();
    for (const [k, v] of Object.entries(form)) multipart.append(k, v);
    await expectOAuthError(await fetch(tokenUrl(system), { method: 'POST', body: multipart }), 400, 'invalid_request');
    await expectCodeStillRedeemable(code);
  });

  it('TK-02 a form in a charset other than UTF-8 is invalid_request (RFC 6749 Appendix B)', async () => {
    const { code, form } = await validForm();
    const res = await postForm(tokenUrl(system), new URLSearchParams(form).toString(), {
      'content-type': 'application/x-www-form-urlencoded; charset=iso-8859-1',
    });
    await expectOAuthError(res, 400, 'invalid_request');
    await expectCodeStillRedeemable(code);
  });

  it('TK-03 malformed forms (%ZZ, percent-encoded and raw invalid UTF-8) are invalid_request', async () => {
    const { code, form } = await validForm();
    const encoded = new URLSearchParams(form).toString();
    for (const broken of [`${encoded}&x=%ZZ`, `${encoded}&x=%FF`, `${encoded}&x=%E2%82`, `${encoded}&x=%`]) {
      await expectOAuthError(await postForm(tokenUrl(system), broken), 400, 'invalid_request');
    }
    const rawInvalidUtf8 = Buffer.concat([Buffer.from(`${encoded}&x=`), Buffer.from([0xff, 0xfe])]);
    const res = await fetch(tokenUrl(system), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: rawInvalidUtf8,
    });
    await expectOAuthError(res, 400, 'invalid_request');
    await expectCodeStillRedeemable(code);
  });

  it('TK-03 well-formed UTF-8 and a literal "+" decode as the form rules say', async () => {
    const { form } = await validForm();
    const res = await postForm(
      tokenUrl(system),
      `${new URLSearchParams(form).toString()}&note=caf%C3%A9+%E2%82%AC&x=caf\u00e9`,
    );
    await expectTokenResponse(res);
  });

  it('TK-04 P-03 GET, PUT, DELETE and PATCH are 405 with Allow: POST and a JSON body', async () => {
    for (const method of ['GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
      const res = await fetch(`${tokenUrl(system)}?grant_type=authorization_code`, { method });
      expect(res.status, method).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      const body = (await res.json()) as { error: string };
      expect(body.error).toBe('invalid_request');
    }
    const head = await fetch(tokenUrl(system), { method: 'HEAD' });
    expect(head.status).toBe(405);
    expect(head.headers.get('allow')).toBe('POST');
  });

  it('TK-05 a body over 10 kB is 413 JSON invalid_request, without a stack', async () => {
    const { code, form } = await validForm();
    const res = await postForm(tokenUrl(system), { ...form, padding: 'a'.repeat(11 * 1024) });
    await expectOAuthError(res, 413, 'invalid_request');
    await expectCodeStillRedeemable(code);
  });

  it('P-02 TK-06 every duplicated parameter is invalid_request and never a 500', async () => {
    const { code, form } = await validForm();
    for (const name of [
      'grant_type',
      'code',
      'redirect_uri',
      'client_id',
      'client_secret',
      'code_verifier',
      'refresh_token',
      'scope',
    ]) {
      const params = new URLSearchParams(form);
      if (!params.has(name)) params.append(name, 'x');
      params.append(name, form[name] ?? 'x');
      const body = await expectOAuthError(await postForm(tokenUrl(system), params), 400, 'invalid_request');
      expect(body.error_description ?? '', name).not.toContain(app.clientSecret);
    }
    // The same parameter twice with an empty copy is still a repeat.
    const params = new URLSearchParams(form);
    params.append('code', '');
    await expectOAuthError(await postForm(tokenUrl(system), params), 400, 'invalid_request');
    await expectCodeStillRedeemable(code);
  });

  it('P-02 a duplicated unknown parameter is ignored like any unknown parameter', async () => {
    const { form } = await validForm();
    const params = new URLSearchParams(form);
    params.append('foo', '1');
    params.append('foo', '2');
    await expectTokenResponse(await postForm(tokenUrl(system), params));
  });

  it('P-01 unknown parameters, including bracketed names and __proto__, are ignored', async () => {
    const { form } = await validForm();
    const res = await postForm(
      tokenUrl(system),
      `${new URLSearchParams(form).toString()}&foo=bar&client_id%5B%5D=x&__proto__=y&constructor=z&audience=https%3A%2F%2Fevil.example`,
    );
    await expectTokenResponse(res);
  });

  it('TK-07 a missing grant_type is invalid_request; an empty one counts as missing', async () => {
    const { code, form } = await validForm();
    const { grant_type: _omit, ...rest } = form;
    await expectOAuthError(await postForm(tokenUrl(system), rest), 400, 'invalid_request');
    await expectOAuthError(await postForm(tokenUrl(system), { ...rest, grant_type: '' }), 400, 'invalid_request');
    await expectCodeStillRedeemable(code);
  });

  it('TK-08 password, client_credentials, implicit, foo and case variants are unsupported_grant_type', async () => {
    const { code, form } = await validForm();
    for (const grantType of [
      'password',
      'client_credentials',
      'implicit',
      'foo',
      'AUTHORIZATION_CODE',
      'authorization_code ',
      'toString',
      '__proto__',
    ]) {
      await expectOAuthError(
        await postForm(tokenUrl(system), { ...form, grant_type: grantType }),
        400,
        'unsupported_grant_type',
      );
    }
    await expectCodeStillRedeemable(code);
    expect(await countRows(system, 'access_tokens', { userId: user.id })).toBeGreaterThan(0);
  });

  it('P-04 no-store and Pragma on success and on every error', async () => {
    const { form } = await validForm();
    const ok = await postForm(tokenUrl(system), form);
    await expectTokenResponse(ok);
    const errors = [
      await postForm(tokenUrl(system), form), // replay: 400
      await postForm(tokenUrl(system), { ...form, client_secret: 'wrong' }), // 401
      await postForm(tokenUrl(system), 'x', { 'content-type': 'text/plain' }), // 400
    ];
    for (const res of errors) {
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('pragma')).toBe('no-cache');
    }
  });

  it('a query string is never a source of parameters', async () => {
    const { code, form } = await validForm();
    const { grant_type: _g, code: _c, ...rest } = form;
    const res = await postForm(
      `${tokenUrl(system)}?grant_type=authorization_code&code=${encodeURIComponent(code)}`,
      rest,
    );
    await expectOAuthError(res, 400, 'invalid_request');
    await expectCodeStillRedeemable(code);
  });
});
