// SR-07: rotating a client's secret while the app keeps sending token requests loses none of
// them, and concurrent changes to the secrets never break SR-02 or SR-04. Real servers, real
// HTTP, on SQLite and on PostgreSQL.
import { beforeAll, describe, expect, it } from 'vitest';
import { findClient, type Client } from '@latchkey/core';
import { makeCode, useUsers } from '#test/support/fixtures.ts';
import { useSystem } from '#test/support/system.ts';
import {
  exchangeCode,
  expectOAuthError,
  expectTokenResponse,
  refreshWith,
} from '../../endpoints/oauth-json/oauth-endpoint.fixture.ts';
import { callAccount, issuePortalToken } from '../account.fixture.ts';

const system = useSystem({ RATE_LIMIT_CREATE_PER_10_MINUTES: '1000', RATE_LIMIT_TOKEN_PER_MINUTE: '100000' });
const { alice } = useUsers(system, { alice: 'Alice' });
let token: string;

beforeAll(async () => {
  token = await issuePortalToken(system, alice);
});

const WORKERS = 4;
const ROUNDS = 3;
/** Requests each phase waits for, so that every create and delete runs among requests in flight. */
const PER_PHASE = 2 * WORKERS;

async function register(): Promise<{ client: Client; secret: string }> {
  const res = await callAccount(system, 'POST', '/account/clients', {
    token,
    json: { name: 'Busy App', redirect_uri: 'https://busy.example/cb' },
  });
  expect(res.status, res.text).toBe(201);
  system.clock.advance(1000);
  return { client: (await findClient(system.db, res.body.client.client_id))!, secret: res.body.client_secret };
}

const secretsUrl = (clientId: string) => `/account/clients/${clientId}/secrets`;
const createSecret = (clientId: string) => callAccount(system, 'POST', secretsUrl(clientId), { token });
const deleteSecret = (clientId: string, secretId: string) =>
  callAccount(system, 'POST', `${secretsUrl(clientId)}/${secretId}/delete`, { token });

async function secretCount(clientId: string): Promise<number> {
  return (await system.db.selectFrom('client_secrets').select('id').where('client_id', '=', clientId).execute()).length;
}

/** Resolves once `condition` holds, polling; fails the test after `ms`. */
async function until(condition: () => boolean, what: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

interface Outcome {
  secret: string;
  status: number;
  body: string;
}

describe('SR-07 rotation under concurrent token requests', () => {
  /*
   * The protocol, as a deployed app rotates its secret:
   *   WORKERS loops each refresh their own grant at POST /oauth/token, one request after another,
   *   each request sent with the secret in `current` at the moment it is sent. Each round:
   *   1. PER_PHASE answers with the old secret; then, with requests in flight,
   *   2. the developer generates a new secret (POST /account/clients/:id/secrets);
   *   3. the app switches: every request sent from now on carries the new secret;
   *   4. the app's requests already sent with the old secret are answered (drained);
   *   5. PER_PHASE answers with the new secret; then, with requests in flight,
   *   6. the developer deletes the old secret (POST .../secrets/:secretId/delete).
   * Every request was sent with a secret that was live when it was sent and stayed live until
   * it was answered, so every one must succeed: a 200 token response, none lost, none 401 or 5xx.
   * Afterwards each deleted secret gets invalid_client (SR-04).
   */
  it('SR-07 create, switch, delete, three rounds, under four concurrent refresh loops: every request succeeds', async () => {
    const { client, secret: first } = await register();
    const refreshTokens: string[] = [];
    for (let i = 0; i < WORKERS; i += 1) {
      const res = await exchangeCode(system, { client, clientSecret: first }, await makeCode(system, client, alice));
      refreshTokens.push((await expectTokenResponse(res)).refresh_token);
    }

    let current = first;
    let stop = false;
    const outcomes: Outcome[] = [];
    const inFlight = new Map<string, number>();
    const answered = () => outcomes.length;
    const worker = async (index: number): Promise<void> => {
      // Bounded: the rounds end long before this many requests.
      for (let n = 0; n < 2000 && !stop; n += 1) {
        const secret = current;
        inFlight.set(secret, (inFlight.get(secret) ?? 0) + 1);
        const res = await refreshWith(system, { client, clientSecret: secret }, refreshTokens[index]!);
        const body = await res.text();
        inFlight.set(secret, inFlight.get(secret)! - 1);
        outcomes.push({ secret, status: res.status, body });
        if (res.status !== 200) return;
        refreshTokens[index] = (JSON.parse(body) as { refresh_token: string }).refresh_token;
      }
    };
    const workers = Array.from({ length: WORKERS }, (_, index) => worker(index));

    const retired: string[] = [];
    const busyAt: number[] = [];
    const [initial] = (await callAccount(system, 'GET', secretsUrl(client.id), { token })).body as Array<{
      id: string;
    }>;
    let oldId = initial!.id;
    try {
      for (let round = 0; round < ROUNDS; round += 1) {
        const old = current;
        let mark = answered();
        await until(() => answered() >= mark + PER_PHASE, 'answers with the old secret');
        busyAt.push(inFlight.get(old) ?? 0);
        const created = await createSecret(client.id);
        expect(created.status, created.text).toBe(201);
        current = created.body.client_secret;
        await until(() => (inFlight.get(old) ?? 0) === 0, 'the old secret’s requests to be answered');
        mark = answered();
        await until(() => answered() >= mark + PER_PHASE, 'answers with the new secret');
        busyAt.push(inFlight.get(current) ?? 0);
        const deleted = await deleteSecret(client.id, oldId);
        expect(deleted.status, deleted.text).toBe(200);
        retired.push(old);
        oldId = created.body.secret.id;
      }
    } finally {
      stop = true;
      await Promise.all(workers);
    }

    const failures = outcomes.filter((outcome) => outcome.status !== 200);
    expect(failures).toEqual([]);
    expect(outcomes.length).toBeGreaterThanOrEqual(ROUNDS * 2 * PER_PHASE);
    // Every create and delete ran while requests were in flight.
    expect(
      busyAt.every((count) => count > 0),
      JSON.stringify(busyAt),
    ).toBe(true);
    // Each of the four secrets carried requests.
    for (const secret of [...retired, current]) {
      expect(outcomes.filter((outcome) => outcome.secret === secret).length).toBeGreaterThan(0);
    }

    // SR-04 afterwards: each retired secret is refused, the current one works.
    for (const secret of retired) {
      const code = await makeCode(system, client, alice);
      await expectOAuthError(await exchangeCode(system, { client, clientSecret: secret }, code), 401, 'invalid_client');
    }
    await expectTokenResponse(
      await exchangeCode(system, { client, clientSecret: current }, await makeCode(system, client, alice)),
    );
    expect(await secretCount(client.id)).toBe(1);
  });

  it('SR-07 SR-02 concurrent generations never leave three secrets: exactly one of six is stored, each round', async () => {
    const { client } = await register();
    for (let round = 0; round < 3; round += 1) {
      const answers = await Promise.all(Array.from({ length: 6 }, () => createSecret(client.id)));
      const created = answers.filter((res) => res.status === 201);
      expect(created).toHaveLength(1);
      for (const res of answers.filter((answer) => answer.status !== 201)) {
        expect(res.status).toBe(400);
        expect(res.body.error).toBe('limit_reached');
      }
      expect(await secretCount(client.id)).toBe(2);
      expect((await deleteSecret(client.id, created[0]!.body.secret.id)).status).toBe(200);
    }
  });

  it('SR-07 SR-04 deleting both secrets at once leaves one: exactly one delete succeeds, the other is 409', async () => {
    const { client } = await register();
    for (let round = 0; round < 3; round += 1) {
      expect((await createSecret(client.id)).status).toBe(201);
      const ids = (
        (await callAccount(system, 'GET', secretsUrl(client.id), { token })).body as Array<{ id: string }>
      ).map((secret) => secret.id);
      expect(ids).toHaveLength(2);
      const answers = await Promise.all(ids.map((id) => deleteSecret(client.id, id)));
      expect(answers.map((res) => res.status).sort()).toEqual([200, 409]);
      expect(await secretCount(client.id)).toBe(1);
    }
  });
});
