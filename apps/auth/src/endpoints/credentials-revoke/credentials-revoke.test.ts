// Issue 36's leaked-credential endpoint: POST /credentials/revoke, on both engines (LK-*).
import { describe, expect, it } from 'vitest';
import { createClientSecret, revokeAccessToken } from '@latchkey/core';
import { generateToken, TokenPrefix } from '@latchkey/credentials';
import { makeClient, makeCode, makePat } from '#test/support/fixtures.ts';
import {
  accessTokenWorks,
  exchangeCode,
  expectOAuthError,
  expectTokenResponse,
  refreshWith,
  useTokenEndpoint,
  type TokenResponse,
} from '../oauth-json/oauth-endpoint.fixture.ts';
import { alterChar } from '#test/support/tamper.ts';

const { system, owner, user, app } = useTokenEndpoint({ RATE_LIMIT_CREDENTIALS_REVOKE_PER_MINUTE: '1000' });

function report(body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${system.authUrl}/credentials/revoke`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': 'leak-scanner/1.0', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

async function freshPair(): Promise<TokenResponse> {
  const code = await makeCode(system, app.client, user);
  return expectTokenResponse(await exchangeCode(system, app, code));
}

async function events(userId: string) {
  return system.db.selectFrom('security_events').selectAll().where('user_id', '=', userId).orderBy('id').execute();
}

describe('LK POST /credentials/revoke', () => {
  it('LK-01 a reported personal access token and access token stop working at once; the access token takes its refresh token with it', async () => {
    const pat = await makePat(system, user, 'leaked pat');
    const pair = await freshPair();
    const res = await report({ credentials: [pat, pair.access_token] });
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ received: 2 });
    expect(await accessTokenWorks(system, pat)).toBe(false);
    expect(await accessTokenWorks(system, pair.access_token)).toBe(false);
    await expectOAuthError(await refreshWith(system, app, pair.refresh_token), 400, 'invalid_grant');
  });

  it('LK-01 a reported refresh token ends its grant: neither it nor its access token works', async () => {
    const pair = await freshPair();
    expect((await report({ credentials: [pair.refresh_token] })).status).toBe(202);
    expect(await accessTokenWorks(system, pair.access_token)).toBe(false);
    await expectOAuthError(await refreshWith(system, app, pair.refresh_token), 400, 'invalid_grant');
  });

  it('LK-02 a reported client secret stops working, that secret only: the client, its other secret and its users’ tokens keep working', async () => {
    const { client, clientSecret } = await makeClient(system, owner, { name: 'Leaky App' });
    const second = await createClientSecret(system.db, system.clock, client.id, owner.id);
    const code = await makeCode(system, client, user);
    const pair = await expectTokenResponse(await exchangeCode(system, { client, clientSecret }, code));

    expect((await report({ credentials: [clientSecret] })).status).toBe(202);

    const again = await makeCode(system, client, user);
    await expectOAuthError(await exchangeCode(system, { client, clientSecret }, again), 401, 'invalid_client');
    await expectTokenResponse(await exchangeCode(system, { client, clientSecret: second.clientSecret }, again));
    expect(await accessTokenWorks(system, pair.access_token)).toBe(true);
    await expectTokenResponse(
      await refreshWith(system, { client, clientSecret: second.clientSecret }, pair.refresh_token),
    );
  });

  it('LK-03 live, dead, unknown and malformed values get the same status and body, and the dead, unknown and malformed change nothing', async () => {
    const live = await makePat(system, user, 'live');
    const dead = await makePat(system, user, 'dead');
    const deadRow = await system.db
      .selectFrom('access_tokens')
      .select('id')
      .where('name', '=', 'dead')
      .executeTakeFirstOrThrow();
    await revokeAccessToken(system.db, system.clock, deadRow.id);
    const unknown = generateToken(TokenPrefix.personalAccessToken);
    const answers: Array<[number, string, string | null]> = [];
    const before = JSON.stringify(await system.db.selectFrom('access_tokens').selectAll().orderBy('id').execute());
    for (const value of [dead, unknown, 'lkp_garbage', 'not a token at all', alterChar(live, -1)]) {
      const res = await report({ credentials: [value] });
      answers.push([res.status, await res.text(), res.headers.get('content-type')]);
    }
    expect(JSON.stringify(await system.db.selectFrom('access_tokens').selectAll().orderBy('id').execute())).toBe(
      before,
    );
    const res = await report({ credentials: [live] });
    answers.push([res.status, await res.text(), res.headers.get('content-type')]);
    expect(new Set(answers.map((answer) => JSON.stringify(answer))).size).toBe(1);
    expect(answers[0]![0]).toBe(202);
    expect(await accessTokenWorks(system, live)).toBe(false);
  });

  it('LK-04 bad shapes are 400, over 1,000 values or 64 kB 413, another media type 415, GET 405, and nothing changes', async () => {
    const pat = await makePat(system, user, 'kept');
    for (const body of [
      '{}',
      '[]',
      '{"credentials":"lkp_x"}',
      '{"credentials":[]}',
      '{"credentials":[1]}',
      '{bad json',
    ]) {
      const res = await report(body);
      expect(res.status, body).toBe(400);
      expect((await res.json()).error).toBe('invalid_request');
    }
    const many = Array.from({ length: 1001 }, () => 'x');
    expect((await report({ credentials: [pat, ...many] })).status).toBe(413);
    expect((await report({ credentials: [pat, 'y'.repeat(70_000)] })).status).toBe(413);
    expect((await report(`credentials=${pat}`, { 'content-type': 'application/x-www-form-urlencoded' })).status).toBe(
      415,
    );
    const get = await fetch(`${system.authUrl}/credentials/revoke`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect(await accessTokenWorks(system, pat)).toBe(true);
  });

  it('LK-06 each revocation is in its owner’s security log as reported, by the reporter’s address and user agent, with no secret in it', async () => {
    const pat = await makePat(system, user, 'logged');
    const patRow = await system.db
      .selectFrom('access_tokens')
      .select('id')
      .where('name', '=', 'logged')
      .executeTakeFirstOrThrow();
    const { client, clientSecret } = await makeClient(system, owner, { name: 'Logged App' });
    await createClientSecret(system.db, system.clock, client.id, owner.id);
    const secretId = (
      await system.db
        .selectFrom('client_secrets')
        .select(['id', 'created_at'])
        .where('client_id', '=', client.id)
        .orderBy('created_at')
        .orderBy('id')
        .execute()
    )[0]!.id;

    expect((await report({ credentials: [pat, clientSecret, pat] })).status).toBe(202);

    // Reported twice in one request, logged once.
    const userEvents = (await events(user.id)).filter(
      (event) => event.target_id === patRow.id && event.type === 'token.reported',
    );
    expect(userEvents).toEqual([
      expect.objectContaining({
        type: 'token.reported',
        actor: 'reporter',
        actor_id: null,
        user_agent: 'leak-scanner/1.0',
        target_type: 'access_token',
        target_id: patRow.id,
        outcome: 'success',
      }),
    ]);
    expect(userEvents[0]!.ip).toMatch(/127\.0\.0\.1|::1/);
    const ownerEvents = await events(owner.id);
    expect(
      ownerEvents.filter((event) => event.type === 'client.secret_reported').map((event) => event.target_id),
    ).toContain(secretId);
    const text = JSON.stringify(await system.db.selectFrom('security_events').selectAll().execute());
    expect(text).not.toContain(pat);
    expect(text).not.toContain(clientSecret);
  });
});
