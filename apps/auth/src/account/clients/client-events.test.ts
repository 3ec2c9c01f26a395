// Issue 36 at the account API's clients: created, edited, secret created, secret deleted and
// revoked, each one event in the owner's security log (AU-12), written in the transaction of
// what it records (AU-02), with ids and never a secret (AU-03).
import { beforeAll, describe, expect, it } from 'vitest';
import { digest } from '@latchkey/credentials';
import { createClient, createClientSecret, deleteClientSecret, revokeClient, updateClient } from '@latchkey/core';
import { aBug } from '#test/support/faults.ts';
import { useUsers } from '#test/support/fixtures.ts';
import { useSystem } from '#test/support/system.ts';
import { callAccount, issuePortalToken, type AccountCall } from '../account.fixture.ts';

const system = useSystem({ RATE_LIMIT_CREATE_PER_10_MINUTES: '1000' });
const { alice, bob } = useUsers(system, { alice: 'Alice Owner', bob: 'Bob Other' });
const USER_AGENT = 'ClientEvents/1.0 (AU-12 test)';
const LOOPBACK = /^(::ffff:)?127\.0\.0\.1$|^::1$/;
let token: string;

beforeAll(async () => {
  token = await issuePortalToken(system, alice);
});

function call(method: string, path: string, json?: unknown): Promise<AccountCall> {
  return callAccount(system, method, path, { token, json, headers: { 'user-agent': USER_AGENT } });
}

async function register(name = 'Logged App'): Promise<{ id: string; secret: string }> {
  const res = await call('POST', '/account/clients', { name, redirect_uri: 'https://logged.example/cb' });
  expect(res.status, res.text).toBe(201);
  return { id: res.body.client.client_id, secret: res.body.client_secret };
}

/** The events whose target is `targetId`, oldest first. */
function eventsOn(targetId: string) {
  return system.db.selectFrom('security_events').selectAll().where('target_id', '=', targetId).orderBy('id').execute();
}

async function eventCount(): Promise<number> {
  return (await system.db.selectFrom('security_events').select('id').execute()).length;
}

/** The one event of `type` on `targetId`, by Alice through the account API. */
async function expectOneAccountEvent(type: string, targetType: string, targetId: string): Promise<void> {
  const events = (await eventsOn(targetId)).filter((e) => e.type === type);
  expect(events, type).toHaveLength(1);
  expect(events[0]).toMatchObject({
    user_id: alice.id,
    actor: 'user',
    actor_id: alice.id,
    user_agent: USER_AGENT,
    target_type: targetType,
    target_id: targetId,
    outcome: 'success',
  });
  expect(events[0]!.ip).toMatch(LOOPBACK);
  expect(Number(events[0]!.created_at)).toBe(system.clock.now());
}

/** Runs `work` while every query on `table` fails, as a bug there would. */
async function withFailing<T>(table: string, work: () => Promise<T>): Promise<T> {
  system.faults.failQueriesOn(table, aBug);
  try {
    return await work();
  } finally {
    system.faults.clear();
  }
}

describe('AU-12 client events through the account API', () => {
  it('AU-12 registering a client writes one client.created in the owner’s log: by the user, from the request’s address and User-Agent', async () => {
    const { id } = await register();
    await expectOneAccountEvent('client.created', 'client', id);
  });

  it('AU-12 editing a client writes one client.edited; an invalid edit is 400 and writes none (AU-02)', async () => {
    const { id } = await register('To Edit');
    system.clock.advance(1000);
    const edited = await call('PATCH', `/account/clients/${id}`, { name: 'Edited App' });
    expect(edited.status, edited.text).toBe(200);
    await expectOneAccountEvent('client.edited', 'client', id);

    const before = await eventCount();
    const invalid = await call('PATCH', `/account/clients/${id}`, { redirect_uris: ['not a url'] });
    expect(invalid.status, invalid.text).toBe(400);
    expect(await eventCount()).toBe(before);
  });

  it('AU-12 a new secret writes one client.secret_created and deleting one writes one client.secret_deleted, each naming the secret’s id', async () => {
    const { id } = await register('Rotating App');
    system.clock.advance(1000);
    const created = await call('POST', `/account/clients/${id}/secrets`);
    expect(created.status, created.text).toBe(201);
    const secretId: string = created.body.secret.id;
    await expectOneAccountEvent('client.secret_created', 'client_secret', secretId);

    system.clock.advance(1000);
    const deleted = await call('POST', `/account/clients/${id}/secrets/${secretId}/delete`);
    expect(deleted.status, deleted.text).toBe(200);
    await expectOneAccountEvent('client.secret_deleted', 'client_secret', secretId);

    // The last secret cannot be deleted (409): no event.
    const before = await eventCount();
    const [last] = (await call('GET', `/account/clients/${id}/secrets`)).body as Array<{ id: string }>;
    expect((await call('POST', `/account/clients/${id}/secrets/${last!.id}/delete`)).status).toBe(409);
    expect(await eventCount()).toBe(before);
  });

  it('AU-12 revoking a client writes one client.revoked; revoking it again changes nothing and writes none', async () => {
    const { id } = await register('To Revoke');
    system.clock.advance(1000);
    expect((await call('POST', `/account/clients/${id}/revoke`)).status).toBe(200);
    await expectOneAccountEvent('client.revoked', 'client', id);
    const before = await eventCount();
    expect((await call('POST', `/account/clients/${id}/revoke`)).status).toBe(200);
    expect(await eventCount()).toBe(before);
  });

  it('AU-12 another user’s client is 404 and writes nothing in either log', async () => {
    const { id } = await register('Not Yours');
    const bobToken = await issuePortalToken(system, bob);
    const before = await eventCount();
    for (const [method, path, json] of [
      ['PATCH', `/account/clients/${id}`, { name: 'Taken' }],
      ['POST', `/account/clients/${id}/secrets`, undefined],
      ['POST', `/account/clients/${id}/revoke`, undefined],
    ] as const) {
      const answer = await callAccount(system, method, path, { token: bobToken, json });
      expect(answer.status, path).toBe(404);
    }
    expect(await eventCount()).toBe(before);
  });
});

describe('AU-12 client events from core, as the CLI calls it', () => {
  it('AU-12 without an actor each change is by an operator, with no address, in the owner’s log', async () => {
    const { client } = await createClient(system.db, system.clock, {
      ownerId: alice.id,
      name: 'CLI App',
      redirectUris: ['https://cli.example/cb'],
    });
    await updateClient(system.db, client.id, undefined, { name: 'CLI App 2' }, undefined, system.clock);
    const { secret } = await createClientSecret(system.db, system.clock, client.id, undefined);
    await deleteClientSecret(system.db, system.clock, client.id, secret.id);
    await revokeClient(system.db, system.clock, client.id);
    const events = [...(await eventsOn(client.id)), ...(await eventsOn(secret.id))];
    expect(events.map((e) => e.type).sort()).toEqual([
      'client.created',
      'client.edited',
      'client.revoked',
      'client.secret_created',
      'client.secret_deleted',
    ]);
    for (const event of events) {
      expect(event).toMatchObject({ user_id: alice.id, actor: 'operator', actor_id: null, ip: null, user_agent: null });
    }
  });

  it('AU-12 a client no one owns (self-registered, provisioned) is in no one’s log', async () => {
    const before = await eventCount();
    const { client } = await createClient(system.db, system.clock, {
      ownerId: null,
      name: 'Ownerless App',
      redirectUris: ['https://ownerless.example/cb'],
      registration: 'dynamic',
    });
    await revokeClient(system.db, system.clock, client.id);
    expect(await eventCount()).toBe(before);
  });
});

describe('AU-02 a client change and its event commit together', () => {
  it('AU-02 when the event cannot be written nothing changes: no client, no edit, no secret, no revocation', async () => {
    const { id } = await register('Unlogged');
    const clientsBefore = (await call('GET', '/account/clients')).body.length;
    const failed = await withFailing('security_events', async () => [
      await call('POST', '/account/clients', { name: 'Never Stored', redirect_uri: 'https://never.example/cb' }),
      await call('PATCH', `/account/clients/${id}`, { name: 'Never Renamed' }),
      await call('POST', `/account/clients/${id}/secrets`),
      await call('POST', `/account/clients/${id}/revoke`),
    ]);
    expect(failed.map((answer) => answer.status)).toEqual([500, 500, 500, 500]);
    expect((await call('GET', '/account/clients')).body).toHaveLength(clientsBefore);
    const after = (await call('GET', `/account/clients/${id}`)).body;
    expect(after).toMatchObject({ name: 'Unlogged', status: 'active' });
    expect((await call('GET', `/account/clients/${id}/secrets`)).body).toHaveLength(1);
  });

  it('AU-02 when the operation fails after its event was written, the event is rolled back with it', async () => {
    // client.created is written right after the client's row, before its secret: a failing
    // secret insert rolls back the client and its event.
    const before = await eventCount();
    const answer = await withFailing('client_secrets', () =>
      call('POST', '/account/clients', { name: 'Half Stored', redirect_uri: 'https://half.example/cb' }),
    );
    expect(answer.status).toBe(500);
    expect(await eventCount()).toBe(before);
    const names = ((await call('GET', '/account/clients')).body as Array<{ name: string }>).map((c) => c.name);
    expect(names).not.toContain('Half Stored');
  });
});

describe('AU-03 no secret in the log', () => {
  it('AU-03 neither a client secret nor its digest appears in security_events', async () => {
    const { id, secret } = await register('Secret Keeper');
    const created = await call('POST', `/account/clients/${id}/secrets`);
    const second: string = created.body.client_secret;
    expect(second).toMatch(/^lks_/);
    const text = JSON.stringify(await system.db.selectFrom('security_events').selectAll().execute());
    expect(text).toContain(id);
    for (const value of [secret, second]) {
      expect(text).not.toContain(value);
      expect(text).not.toContain(digest(value));
      expect(text).not.toContain(value.slice(4));
    }
  });
});
