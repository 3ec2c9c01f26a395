import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '@latchkey/core';
import { makeClient, makeCode, makeUser } from '#test/support/fixtures.ts';
import { postFormFrom } from '#test/support/loopback.ts';
import { startSystem, type TestSystem } from '#test/support/system.ts';
import type { ClientCredentialsFixture } from './oauth-endpoint.fixture.ts';

// OAuth 2.1 §2.4.1 brute-force protection of client secrets: CA-07, TK-RL-01.
// Requests leave from different loopback addresses (127.0.0.0/8 all reach the server), so
// "rotating IPs" are real source addresses, not a trusted X-Forwarded-For.
const LIMIT = 5;
let system: TestSystem;
let user: User;

beforeAll(async () => {
  system = await startSystem({ RATE_LIMIT_TOKEN_PER_MINUTE: String(LIMIT) });
  user = await makeUser(system);
});
afterAll(async () => {
  await system.close();
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: { error?: string; error_description?: string };
}

let nextHost = 10;
/** A source address no other test uses. */
function freshAddress(): string {
  nextHost += 1;
  return `127.0.${Math.floor(nextHost / 250)}.${(nextHost % 250) + 2}`;
}

async function postFrom(localAddress: string, path: string, form: Record<string, string>): Promise<Answer> {
  const answer = await postFormFrom(localAddress, `${system.authUrl}${path}`, form);
  return { status: answer.status, headers: answer.headers, body: answer.text ? JSON.parse(answer.text) : {} };
}

async function exchangeFrom(
  address: string,
  creds: ClientCredentialsFixture,
  secret = creds.clientSecret,
): Promise<Answer> {
  const code = await makeCode(system, creds.client, user);
  return postFrom(address, '/oauth/token', {
    grant_type: 'authorization_code',
    code,
    redirect_uri: creds.client.redirectUris[0]!,
    client_id: creds.client.id,
    client_secret: secret,
  });
}

function expectTooMany(answer: Answer): void {
  expect(answer.status).toBe(429);
  expect(answer.body.error).toBe('slow_down');
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  expect(answer.headers['cache-control']).toBe('no-store');
  expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
  expect(Number(answer.headers['retry-after'])).toBeLessThanOrEqual(60);
  expect(String(answer.headers['ratelimit'])).toMatch(/r=0; t=\d+/);
  expect(String(answer.headers['ratelimit-policy'])).toMatch(new RegExp(`q=${LIMIT}; w=60`));
}

describe('CA-07 TK-RL-01 failed client authentications are limited per client_id and per address', () => {
  it('CA-07 wrong secrets for one client_id from rotating addresses end in 429; other clients are unaffected', async () => {
    const victim = await makeClient(system, user, { name: 'Victim' });
    const bystander = await makeClient(system, user, { name: 'Bystander' });
    for (let i = 0; i < LIMIT; i++) {
      const answer = await exchangeFrom(freshAddress(), victim, `lks_wrong${i}`);
      expect(answer.status).toBe(401);
      expect(answer.body.error).toBe('invalid_client');
    }
    expectTooMany(await exchangeFrom(freshAddress(), victim, 'lks_wrong-again'));
    // HD-01: the limit slows only failing attempts; the right secret is never refused by it
    // (client ids are public: otherwise anyone could lock any client out).
    expect((await exchangeFrom(freshAddress(), victim)).status).toBe(200);
    expectTooMany(await exchangeFrom(freshAddress(), victim, 'lks_wrong-still'));
    // Another client, from an address that took part in nothing, is not locked out.
    expect((await exchangeFrom(freshAddress(), bystander)).status).toBe(200);
  });

  it('TK-RL-01 failures from one address across many client_ids end in 429 for that address only', async () => {
    const attacker = freshAddress();
    const legit = await makeClient(system, user, { name: 'Legit' });
    for (let i = 0; i < LIMIT; i++) {
      const answer = await postFrom(attacker, '/oauth/token', {
        grant_type: 'authorization_code',
        code: 'x',
        redirect_uri: 'https://client.example/cb',
        client_id: `lkc_spray${i}`,
        client_secret: 'lks_spray',
      });
      expect(answer.status).toBe(401);
    }
    expectTooMany(await exchangeFrom(attacker, legit));
    // The same client from another address is fine: it never failed itself.
    expect((await exchangeFrom(freshAddress(), legit)).status).toBe(200);
  });

  it('successful requests and non-authentication errors do not use up the allowance', async () => {
    const busy = await makeClient(system, user, { name: 'Busy' });
    const address = freshAddress();
    for (let i = 0; i < LIMIT * 3; i++) {
      const answer = await exchangeFrom(address, busy);
      expect(answer.status).toBe(200);
      expect(String(answer.headers['ratelimit'])).toContain('"client-auth-address"');
    }
    for (let i = 0; i < LIMIT * 2; i++) {
      const answer = await postFrom(address, '/oauth/token', {
        grant_type: 'authorization_code',
        code: 'not-a-code',
        redirect_uri: busy.client.redirectUris[0]!,
        client_id: busy.client.id,
        client_secret: busy.clientSecret,
      });
      expect(answer.status).toBe(400);
      expect(answer.body.error).toBe('invalid_grant');
    }
    expect((await exchangeFrom(address, busy)).status).toBe(200);
  });

  it('the revocation endpoint draws on the same allowance as the token endpoint', async () => {
    const target = await makeClient(system, user, { name: 'Target' });
    for (let i = 0; i < LIMIT; i++) {
      const answer = await postFrom(freshAddress(), '/oauth/revoke', {
        token: 'lkr_x',
        client_id: target.client.id,
        client_secret: `lks_wrong${i}`,
      });
      expect(answer.status).toBe(401);
    }
    expectTooMany(await exchangeFrom(freshAddress(), target, 'lks_wrong-exchange'));
    expectTooMany(
      await postFrom(freshAddress(), '/oauth/revoke', {
        token: 'x',
        client_id: target.client.id,
        client_secret: 'lks_wrong-revoke',
      }),
    );
    // HD-01: with the right secret both endpoints still answer.
    expect((await exchangeFrom(freshAddress(), target)).status).toBe(200);
    expect(
      (
        await postFrom(freshAddress(), '/oauth/revoke', {
          token: 'x',
          client_id: target.client.id,
          client_secret: target.clientSecret,
        })
      ).status,
    ).toBe(200);
  });
});
