// Issue 36 at the sign-in pages: sign-in, failed sign-in and sign-out in the user's security log
// (AU-10), written with what they record or not at all (AU-02), never with the password (AU-03).
import { describe, expect, it } from 'vitest';
import { CookieJar, fetchPage, findForm, type PageResult } from '#test/support/browserless-flow.ts';
import { aBug } from '#test/support/faults.ts';
import { makeUser, type TestUser } from '#test/support/fixtures.ts';
import { useSystem } from '#test/support/system.ts';

// Failed sign-ins below would otherwise reach the default limit; rate-limit.test.ts covers it.
const system = useSystem({ RATE_LIMIT_LOGIN_PER_MINUTE: '1000' });
const USER_AGENT = 'SignInEvents/1.0 (AU-10 test)';
const LOOPBACK = /^(::ffff:)?127\.0\.0\.1$|^::1$/;

function events(userId: string) {
  return system.db.selectFrom('security_events').selectAll().where('user_id', '=', userId).orderBy('id').execute();
}

async function allEvents(): Promise<number> {
  return (await system.db.selectFrom('security_events').select('id').execute()).length;
}

/** GET then POST a page's form (`action`), as a browser with USER_AGENT. */
async function submitForm(
  jar: CookieJar,
  path: string,
  action: string,
  fields: Record<string, string>,
): Promise<PageResult> {
  const headers = { 'user-agent': USER_AGENT };
  const page = await fetchPage(system, jar, path, { headers });
  const form = findForm(page.html, action);
  if (!form) throw new Error(`no ${action} form at ${path} (status ${page.status})`);
  return fetchPage(system, jar, action, { form: { ...form.fields, ...fields }, headers });
}

function signIn(jar: CookieJar, email: string, password: string): Promise<PageResult> {
  return submitForm(jar, '/signin', '/signin', { email, password });
}

async function signedIn(user: TestUser): Promise<CookieJar> {
  const jar = new CookieJar();
  expect((await signIn(jar, user.email, user.password)).status).toBe(303);
  return jar;
}

async function whoAmI(jar: CookieJar): Promise<string | undefined> {
  const home = await fetchPage(system, jar, '/');
  return /class="account-email">([^<]+)</.exec(home.html)?.[1];
}

function expectFromThisRequest(event: { ip: string | null; user_agent: string | null }): void {
  expect(event.ip).toMatch(LOOPBACK);
  expect(event.user_agent).toBe(USER_AGENT);
}

describe('AU-10 sign-in events', () => {
  it('AU-10 signing in writes one sign_in in the user’s log: by the user, from the request’s address and User-Agent', async () => {
    const user = await makeUser(system, 'Signing In');
    system.clock.advance(1000);
    const jar = await signedIn(user);
    expect(await whoAmI(jar)).toBe(user.email);
    const [event, ...rest] = await events(user.id);
    expect(rest).toEqual([]);
    expect(event).toMatchObject({
      type: 'sign_in',
      user_id: user.id,
      actor: 'user',
      actor_id: user.id,
      outcome: 'success',
      target_type: null,
      target_id: null,
    });
    expect(Number(event!.created_at)).toBe(system.clock.now());
    expectFromThisRequest(event!);
  });

  it('AU-10 a wrong password for an existing account writes one sign_in_failed (outcome failure) in that account’s log; an unknown email writes nothing anywhere', async () => {
    const user = await makeUser(system, 'Mistyped');
    const wrong = await signIn(new CookieJar(), user.email, 'not-the-password-AU10');
    expect(wrong.status).toBe(422);
    const [event, ...rest] = await events(user.id);
    expect(rest).toEqual([]);
    expect(event).toMatchObject({ type: 'sign_in_failed', user_id: user.id, actor: 'user', outcome: 'failure' });
    // Whoever typed the password is not known to be the account's user.
    expect(event!.actor_id).toBeNull();
    expectFromThisRequest(event!);

    const before = await allEvents();
    const unknown = await signIn(new CookieJar(), 'nobody-au10@example.test', 'whatever-password');
    expect(unknown.status).toBe(422);
    // The same answer as a wrong password, and no one's log.
    expect(unknown.html).toContain('Incorrect email or password.');
    expect(await allEvents()).toBe(before);
  });

  it('AU-10 signing up signs in: the new account’s log starts with one sign_in', async () => {
    const jar = new CookieJar();
    const email = `new-au10-${Date.now()}@example.test`;
    const created = await submitForm(jar, '/signup', '/signup', {
      name: 'New Account',
      email,
      password: 'a long enough passphrase for AU-10',
    });
    expect(created.status, created.html).toBe(303);
    const user = await system.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
    const log = await events(user.id);
    expect(log.map((e) => [e.type, e.actor, e.actor_id])).toEqual([['sign_in', 'user', user.id]]);
    expectFromThisRequest(log[0]!);
  });

  it('AU-10 Sign out writes one sign_out in the user’s log, from the request', async () => {
    const user = await makeUser(system, 'Signing Out');
    const jar = await signedIn(user);
    const answer = await submitForm(jar, '/', '/signout', {});
    expect(answer.status).toBe(303);
    expect(await whoAmI(jar)).toBeUndefined();
    const signOuts = (await events(user.id)).filter((e) => e.type === 'sign_out');
    expect(signOuts).toHaveLength(1);
    expect(signOuts[0]).toMatchObject({ user_id: user.id, actor: 'user', actor_id: user.id, outcome: 'success' });
    expectFromThisRequest(signOuts[0]!);
  });

  it('AU-10 the end-session endpoint’s sign-out writes one sign_out; with nobody signed in it writes none', async () => {
    const user = await makeUser(system, 'Ending Session');
    const jar = await signedIn(user);
    const { clientId, postLogoutRedirectUri } = system.config.portal;
    const logout = `/oauth/logout?${new URLSearchParams({ client_id: clientId, post_logout_redirect_uri: postLogoutRedirectUri })}`;
    const answer = await fetchPage(system, jar, logout, { headers: { 'user-agent': USER_AGENT } });
    expect(answer.status).toBe(303);
    const signOuts = (await events(user.id)).filter((e) => e.type === 'sign_out');
    expect(signOuts).toHaveLength(1);
    expectFromThisRequest(signOuts[0]!);

    const before = await allEvents();
    expect((await fetchPage(system, jar, logout)).status).toBe(303);
    expect(await allEvents()).toBe(before);
  });
});

describe('AU-02 a sign-in or sign-out and its event together', () => {
  it('AU-02 when the sign_in event cannot be written the sign-in fails: no session is left signed in', async () => {
    const user = await makeUser(system, 'Unlogged Sign-in');
    const jar = new CookieJar();
    system.faults.failQueriesOn('security_events', aBug);
    try {
      const answer = await signIn(jar, user.email, user.password);
      expect(answer.status).toBe(500);
    } finally {
      system.faults.clear();
    }
    expect(await whoAmI(jar)).toBeUndefined();
    expect(await events(user.id)).toEqual([]);
  });

  it('AU-02 when the sign_out event cannot be written the sign-out fails (500) and writes none', async () => {
    const user = await makeUser(system, 'Unlogged Sign-out');
    const jar = await signedIn(user);
    const home = await fetchPage(system, jar, '/');
    const form = findForm(home.html, '/signout')!;
    system.faults.failQueriesOn('security_events', aBug);
    try {
      const answer = await fetchPage(system, jar, '/signout', { form: form.fields });
      expect(answer.status).toBe(500);
    } finally {
      system.faults.clear();
    }
    // Any 5xx drops the browser's session (error-handler.ts, fail closed), so the browser is
    // signed out all the same; the log says nothing that did not commit.
    expect((await events(user.id)).map((e) => e.type)).toEqual(['sign_in']);
  });
});

describe('AU-03 no secret in the log', () => {
  it('AU-03 neither a right nor a wrong password appears in security_events', async () => {
    const user = await makeUser(system, 'Secretive');
    const wrongPassword = 'wrong-password-AU03-xyz';
    await signIn(new CookieJar(), user.email, wrongPassword);
    await signedIn(user);
    const text = JSON.stringify(await system.db.selectFrom('security_events').selectAll().execute());
    expect(text).toContain(user.id);
    expect(text).not.toContain(user.password);
    expect(text).not.toContain(wrongPassword);
  });
});
