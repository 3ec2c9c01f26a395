// Issue 36 for applications: Allow on the consent page (application.authorized), Revoke access
// on Authorized applications (application.revoked) and an approved device sign-in
// (device.approved), each one event in the user's security log (AU-13), written in the
// transaction of what it records (AU-02), with ids and never a code (AU-03).
import { describe, expect, it } from 'vitest';
import { hasConsented, listAuthorizedApplications, revokeApplicationAccess, type User } from '@latchkey/core';
import {
  CookieJar,
  driveToDecision,
  fetchPage,
  findForm,
  parseAuthorizationRedirect,
  signIn,
  type PageResult,
} from '#test/support/browserless-flow.ts';
import { aBug } from '#test/support/faults.ts';
import { makeClient, makeUser, useUsers, type TestUser } from '#test/support/fixtures.ts';
import { useSystem } from '#test/support/system.ts';
import {
  deviceRow,
  enterCode,
  follow,
  makeDeviceClient,
  startDevice,
} from '../../interaction/device/device.fixture.ts';
import { callAccount, issuePortalToken } from '../account.fixture.ts';

const system = useSystem({ RATE_LIMIT_LOGIN_PER_MINUTE: '1000' });
const { owner } = useUsers(system, { owner: 'Olivia Owner' });
const USER_AGENT = 'ApplicationEvents/1.0 (AU-13 test)';
const LOOPBACK = /^(::ffff:)?127\.0\.0\.1$|^::1$/;
const REDIRECT = 'https://weather.example/cb';

function events(userId: string) {
  return system.db.selectFrom('security_events').selectAll().where('user_id', '=', userId).orderBy('id').execute();
}

async function eventsOfType(userId: string, type: string) {
  return (await events(userId)).filter((e) => e.type === type);
}

/** The one event of `type` in `user`'s log, by them from USER_AGENT on the loopback address. */
async function expectOneEvent(user: User, type: string, target: { type: string; id: string }): Promise<void> {
  const found = await eventsOfType(user.id, type);
  expect(found, type).toHaveLength(1);
  expect(found[0]).toMatchObject({
    actor: 'user',
    actor_id: user.id,
    user_agent: USER_AGENT,
    target_type: target.type,
    target_id: target.id,
    outcome: 'success',
  });
  expect(found[0]!.ip).toMatch(LOOPBACK);
  expect(Number(found[0]!.created_at)).toBe(system.clock.now());
}

/** Runs `work` while every query on security_events fails, as a bug there would. */
async function withoutTheLog<T>(work: () => Promise<T>): Promise<T> {
  system.faults.failQueriesOn('security_events', aBug);
  try {
    return await work();
  } finally {
    system.faults.clear();
  }
}

/** A signed-in user at a third-party app's consent page. */
async function atConsent(): Promise<{
  user: TestUser;
  app: Awaited<ReturnType<typeof makeClient>>;
  jar: CookieJar;
  page: PageResult;
}> {
  const user = await makeUser(system, 'Ada Lovelace');
  const app = await makeClient(system, owner, { name: 'Weather Widget', redirectUri: REDIRECT });
  const jar = new CookieJar();
  const page = await driveToDecision(system, jar, { clientId: app.client.id, redirectUri: REDIRECT, state: 's' }, user);
  expect(page.step).toBe('consent');
  return { user, app, jar, page };
}

/** Allow or Deny on the consent page, from USER_AGENT. */
function decideConsent(jar: CookieJar, page: PageResult, decision: 'allow' | 'deny'): Promise<PageResult> {
  const form = findForm(page.html, '/oauth/authorize/decision')!;
  return fetchPage(system, jar, '/oauth/authorize/decision', {
    form: { ...form.fields, decision },
    headers: { 'user-agent': USER_AGENT },
  });
}

async function revokeAccess(user: User, clientId: string) {
  return callAccount(system, 'POST', `/account/applications/${encodeURIComponent(clientId)}/revoke`, {
    token: await issuePortalToken(system, user),
    headers: { 'user-agent': USER_AGENT },
  });
}

describe('AU-13 application authorized: Allow on the consent page', () => {
  it('AU-13 Allow writes one application.authorized in the user’s log: by the user, from the request, the client as target', async () => {
    const { user, app, jar, page } = await atConsent();
    system.clock.advance(1000);
    const answer = await decideConsent(jar, page, 'allow');
    expect(answer.status).toBe(303);
    expect(parseAuthorizationRedirect(answer.location!).code).toBeDefined();
    await expectOneEvent(user, 'application.authorized', { type: 'client', id: app.client.id });
    // The application's owner's log says nothing of it.
    expect(await eventsOfType(owner.id, 'application.authorized')).toEqual([]);
  });

  it('AU-13 Deny writes none', async () => {
    const { user, jar, page } = await atConsent();
    const answer = await decideConsent(jar, page, 'deny');
    expect(parseAuthorizationRedirect(answer.location!).error).toBe('access_denied');
    expect(await eventsOfType(user.id, 'application.authorized')).toEqual([]);
  });

  it('AU-02 when the event cannot be written, Allow fails: no consent is remembered and no code is issued', async () => {
    const { user, app, jar, page } = await atConsent();
    const answer = await withoutTheLog(() => decideConsent(jar, page, 'allow'));
    expect(answer.status).toBe(500);
    expect(answer.location).toBeUndefined();
    expect(await hasConsented(system.db, user.id, app.client.id)).toBe(false);
    expect(
      await system.db.selectFrom('authorization_codes').select('id').where('user_id', '=', user.id).execute(),
    ).toEqual([]);
    expect(await eventsOfType(user.id, 'application.authorized')).toEqual([]);
  });
});

describe('AU-13 application access revoked: Revoke on Authorized applications', () => {
  it('AU-13 Revoke access writes one application.revoked in the user’s log, from the request', async () => {
    const { user, app, jar, page } = await atConsent();
    await decideConsent(jar, page, 'allow');
    system.clock.advance(1000);
    const answer = await revokeAccess(user, app.client.id);
    expect(answer.status, answer.text).toBe(200);
    await expectOneEvent(user, 'application.revoked', { type: 'client', id: app.client.id });

    // Nothing left to revoke: 404 and no second event.
    expect((await revokeAccess(user, app.client.id)).status).toBe(404);
    expect(await eventsOfType(user.id, 'application.revoked')).toHaveLength(1);
  });

  it('AU-13 from core without an actor (the CLI’s grant revoke) it is by an operator, with no address', async () => {
    const { user, app, jar, page } = await atConsent();
    await decideConsent(jar, page, 'allow');
    await revokeApplicationAccess(system.db, system.clock, user.id, app.client.id);
    const [event, ...rest] = await eventsOfType(user.id, 'application.revoked');
    expect(rest).toEqual([]);
    expect(event).toMatchObject({
      actor: 'operator',
      actor_id: null,
      ip: null,
      user_agent: null,
      target_id: app.client.id,
    });
  });

  it('AU-02 when the event cannot be written, Revoke access fails and the application keeps its access', async () => {
    const { user, app, jar, page } = await atConsent();
    await decideConsent(jar, page, 'allow');
    const token = await issuePortalToken(system, user);
    const answer = await withoutTheLog(() =>
      callAccount(system, 'POST', `/account/applications/${app.client.id}/revoke`, { token }),
    );
    expect(answer.status).toBe(500);
    expect(await hasConsented(system.db, user.id, app.client.id)).toBe(true);
    expect((await listAuthorizedApplications(system.db, system.clock, user.id)).map((a) => a.clientId)).toEqual([
      app.client.id,
    ]);
    expect(await eventsOfType(user.id, 'application.revoked')).toEqual([]);
  });
});

describe('AU-13 device sign-in approved', () => {
  async function atDeviceConsent() {
    const user = await makeUser(system, 'Device User');
    const client = await makeDeviceClient(system, owner);
    const started = await startDevice(system, client);
    const jar = new CookieJar();
    expect((await signIn(system, jar, user)).status).toBe(303);
    const entered = await enterCode(system, jar, started.userCode);
    const consent = await follow(system, jar, entered);
    expect(consent.status).toBe(200);
    const row = await system.db
      .selectFrom('device_authorizations')
      .select('id')
      .where('client_id', '=', client.id)
      .executeTakeFirstOrThrow();
    return { user, client, started, jar, consent, id: row.id };
  }

  function decideDevice(jar: CookieJar, consent: PageResult, decision: 'approve' | 'deny'): Promise<PageResult> {
    const form = findForm(consent.html, '/device/decision')!;
    return fetchPage(system, jar, '/device/decision', {
      form: { ...form.fields, decision },
      headers: { 'user-agent': USER_AGENT },
    });
  }

  it('AU-13 Approve writes one device.approved in the user’s log, the device authorization as target; Deny writes none', async () => {
    const approving = await atDeviceConsent();
    system.clock.advance(1000);
    expect((await decideDevice(approving.jar, approving.consent, 'approve')).status).toBe(200);
    await expectOneEvent(approving.user, 'device.approved', { type: 'device_authorization', id: approving.id });

    const denying = await atDeviceConsent();
    expect((await decideDevice(denying.jar, denying.consent, 'deny')).status).toBe(200);
    expect(await eventsOfType(denying.user.id, 'device.approved')).toEqual([]);
  });

  it('AU-02 when the event cannot be written, the approval fails and the request stays pending', async () => {
    const { user, client, jar, consent } = await atDeviceConsent();
    const answer = await withoutTheLog(() => decideDevice(jar, consent, 'approve'));
    expect(answer.status).toBe(500);
    expect(await deviceRow(system, client.id)).toMatchObject({ status: 'pending', user_id: null });
    expect(await eventsOfType(user.id, 'device.approved')).toEqual([]);
  });

  it('AU-03 neither the user code nor the device code appears in security_events', async () => {
    const { jar, consent, started } = await atDeviceConsent();
    await decideDevice(jar, consent, 'approve');
    const text = JSON.stringify(await system.db.selectFrom('security_events').selectAll().execute());
    expect(text).not.toContain(started.userCode);
    expect(text).not.toContain(started.deviceCode);
  });
});

describe('AU-03 no code in the log', () => {
  it('AU-03 the authorization code Allow issued does not appear in security_events', async () => {
    const { jar, page } = await atConsent();
    const answer = await decideConsent(jar, page, 'allow');
    const code = parseAuthorizationRedirect(answer.location!).code!;
    const text = JSON.stringify(await system.db.selectFrom('security_events').selectAll().execute());
    expect(text).toContain('application.authorized');
    expect(text).not.toContain(code);
  });
});
