import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateToken, TokenPrefix } from '@latchkey/credentials';
import { startSystem, type TestSystem } from '#test/support/system.ts';
import { makePat, makeUser } from '#test/support/fixtures.ts';
import {
  bareChallenge,
  invalidRequestChallenge,
  invalidTokenChallenge,
  postGraphql,
  type GraphqlAnswer,
} from '../testing/post-graphql.ts';
import { alterChar, truncate } from '#test/support/tamper.ts';

let system: TestSystem;
let pat: string;

beforeAll(async () => {
  system = await startSystem();
  pat = await makePat(system, await makeUser(system, 'Grace Hopper'));
});
afterAll(() => system?.close());

const UNAUTHENTICATED_BODY = { errors: [{ message: 'Authentication required', extensions: { code: 'UNAUTHENTICATED' } }] };

function withAuthorization(value: string): Promise<GraphqlAnswer> {
  return postGraphql(system.apiUrl, { headers: { authorization: value } });
}

function expectNoStore(answer: GraphqlAnswer): void {
  expect(answer.headers.get('cache-control')).toBe('no-store');
  expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
}

/** RFC 6750 §3: `error_description` may not hold `"`, so the header's quotes become single ones there. */
const MUST_BE_BEARER = "The Authorization header must be 'Bearer <token>'.";

function expectInvalidRequest(answer: GraphqlAnswer): void {
  expect(answer.status).toBe(400);
  expect(answer.headers.get('www-authenticate')).toBe(invalidRequestChallenge(system.apiUrl, MUST_BE_BEARER));
  expect(answer.json.errors[0].message).toBe('The Authorization header must be "Bearer <token>".');
  expect(answer.json.errors[0].extensions.code).toBe('BAD_REQUEST');
  expect(answer.json.data).toBeUndefined();
  expectNoStore(answer);
}

function expectInvalidToken(answer: GraphqlAnswer): void {
  expect(answer.status).toBe(401);
  expect(answer.headers.get('www-authenticate')).toBe(invalidTokenChallenge(system.apiUrl));
  expect(answer.json.errors[0].extensions.code).toBe('UNAUTHENTICATED');
  expect(answer.json.data).toBeUndefined();
  expectNoStore(answer);
}

/** Side effect checked after each rejection: the real token was not harmed by the bad request. */
async function expectTokenStillWorks(): Promise<void> {
  const answer = await postGraphql(system.apiUrl, { token: pat });
  expect(answer.status).toBe(200);
  expect(answer.json).toEqual({ data: { profile: { name: 'Grace Hopper' } } });
}

describe('RFC 6750 bearer authentication at /graphql (D-6)', () => {
  it('answers the documented query for a valid PAT', async () => {
    const answer = await postGraphql(system.apiUrl, { token: pat, query: '{ profile { id name email } }' });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('www-authenticate')).toBeNull();
    expect(answer.json.data.profile).toMatchObject({ name: 'Grace Hopper', email: expect.stringContaining('@example.test') });
    expect(answer.json.data.profile.id).toMatch(/^usr_/);
    expectNoStore(answer);
  });

  it('GQ-01, RS-14 no Authorization: 401, a Bearer challenge without error naming the metadata, documented body', async () => {
    const answer = await postGraphql(system.apiUrl, {});
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toBe(
      `Bearer realm="api", resource_metadata="${system.apiUrl}/.well-known/oauth-protected-resource/graphql"`,
    );
    expect(answer.json).toEqual(UNAUTHENTICATED_BODY);
    expectNoStore(answer);
  });

  it('CL-03 the 401 answers in the media type the Accept header prefers: graphql-response+json when asked, else application/json', async () => {
    const cases: Array<[string | undefined, string]> = [
      ['application/graphql-response+json', 'application/graphql-response+json; charset=utf-8'],
      ['application/graphql-response+json, application/json;q=0.9', 'application/graphql-response+json; charset=utf-8'],
      ['application/json', 'application/json; charset=utf-8'],
      [undefined, 'application/json; charset=utf-8'],
    ];
    for (const [accept, contentType] of cases) {
      for (const token of [undefined, 'lkp_not-a-token']) {
        const answer = await postGraphql(system.apiUrl, { token, headers: accept === undefined ? {} : { accept } });
        expect(answer.status, `${accept} ${token}`).toBe(401);
        expect(answer.headers.get('content-type')).toBe(contentType);
        expect(answer.json.errors[0].extensions.code).toBe('UNAUTHENTICATED');
      }
    }
  });

  it('GQ-02 "Bearer" with no token: 400 invalid_request', async () => {
    expectInvalidRequest(await withAuthorization('Bearer'));
    await expectTokenStillWorks();
  });

  it('GQ-03 inner space or tab: 400 invalid_request', async () => {
    expectInvalidRequest(await withAuthorization(`Bearer ${pat.slice(0, 8)} ${pat.slice(8)}`));
    expectInvalidRequest(await withAuthorization(`Bearer\t${pat}`));
    await expectTokenStillWorks();
  });

  it('GQ-04 two spaces after the scheme are accepted (RFC 6750 ABNF "Bearer" 1*SP b64token)', async () => {
    const answer = await withAuthorization(`Bearer  ${pat}`);
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ data: { profile: { name: 'Grace Hopper' } } });
  });

  it('GQ-05/P-05 "bearer" and "BEARER" work like "Bearer"', async () => {
    for (const scheme of ['bearer', 'BEARER']) {
      const answer = await withAuthorization(`${scheme} ${pat}`);
      expect(answer.status).toBe(200);
      expect(answer.json).toEqual({ data: { profile: { name: 'Grace Hopper' } } });
    }
  });

  it('GQ-06 Basic: 401 with the Bearer challenge and no error code (unsupported method, RFC 6750 §3.1)', async () => {
    const answer = await withAuthorization(`Basic ${Buffer.from(`user:${pat}`).toString('base64')}`);
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toBe(bareChallenge(system.apiUrl));
    expect(answer.json).toEqual(UNAUTHENTICATED_BODY);
    expectNoStore(answer);
  });

  it('GQ-07 two Authorization headers: 400 invalid_request (Node would keep the first)', async () => {
    const answer = await new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
      const body = JSON.stringify({ query: '{ profile { name } }' });
      const req = request(
        `${system.apiUrl}/graphql`,
        {
          method: 'POST',
          // A flat raw-header list keeps both fields on the wire (and replaces Node's defaults:
          // Host and Content-Length must be given).
          headers: [
            'host',
            new URL(system.apiUrl).host,
            'content-type',
            'application/json',
            'content-length',
            String(Buffer.byteLength(body)),
            'authorization',
            `Bearer ${pat}`,
            'authorization',
            'Bearer lkp_other',
          ],
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
    expect(answer.status).toBe(400);
    expect(answer.headers['www-authenticate']).toBe(
      invalidRequestChallenge(system.apiUrl, 'Send exactly one Authorization header.'),
    );
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(JSON.parse(answer.body).errors[0]).toEqual({
      message: 'Send exactly one Authorization header.',
      extensions: { code: 'BAD_REQUEST' },
    });
    await expectTokenStillWorks();
  });

  it('GQ-08 random, truncated, bit-flipped, other-prefix and never-issued tokens: 401 invalid_token', async () => {
        const candidates = [
      'not-a-token',
      truncate(pat),
      alterChar(pat, 10),
      `lkr_${pat.slice(4)}`,
      `lko_${pat.slice(4)}`,
      generateToken(TokenPrefix.refreshToken),
      generateToken(TokenPrefix.clientSecret),
      // Well formed with a valid checksum, but issued by another environment (never stored here).
      generateToken(TokenPrefix.personalAccessToken),
      generateToken(TokenPrefix.accessToken),
    ];
    for (const token of candidates) expectInvalidToken(await postGraphql(system.apiUrl, { token }));
    await expectTokenStillWorks();
  });

  it('RF-03 a token in ?access_token= is ignored: 401 as unauthenticated', async () => {
    const answer = await postGraphql(system.apiUrl, { path: `/graphql?access_token=${pat}` });
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toBe(bareChallenge(system.apiUrl));
    expect(answer.json).toEqual(UNAUTHENTICATED_BODY);
    const viaGet = await postGraphql(system.apiUrl, { method: 'GET', path: `/graphql?query=%7Bprofile%7Bname%7D%7D&access_token=${pat}` });
    expect(viaGet.status).toBe(401);
    expect(viaGet.headers.get('www-authenticate')).toBe(bareChallenge(system.apiUrl));
  });

  it('RF-04 rejected tokens are never written to the log', async () => {
    const rejected = await postGraphql(system.apiUrl, { token: alterChar(pat, -1) });
    expect(rejected.status).toBe(401);
    const log = system.logs.join('\n');
    expect(log).not.toContain(pat);
    expect(log).not.toContain(pat.slice(4, 30));
  });
});
