import { describe, expect, it } from 'vitest';
import { hasConsented, revokeClient, type Client } from '@latchkey/core';
import {
  CookieJar,
  fetchPage,
  findButtons,
  findForm,
  getConsent,
  parseAuthorizationRedirect,
  signIn,
  submitDecision,
  type PageResult,
} from '#test/support/browserless-flow.ts';
import { makeClient, useUsers } from '#test/support/fixtures.ts';
import { useSystem } from '#test/support/system.ts';
import {
  countCodes,
  expectErrorPage,
  expectErrorRedirect,
  expectPageSecurityHeaders,
  provisionClient,
  REDIRECT_URI,
} from '../authorize.fixture.ts';

const system = useSystem();
const { user, other, owner } = useUsers(system, {
  user: 'Ada Lovelace',
  other: 'Mallory Attacker',
  owner: 'Olivia Owner',
});

async function freshClient(name = 'Example App'): Promise<Client> {
  return (await makeClient(system, owner, { redirectUri: REDIRECT_URI, name })).client;
}

async function consentFor(
  client: Client,
  jar = new CookieJar(),
  state = 'cs',
): Promise<{ jar: CookieJar; page: PageResult }> {
  const page = await getConsent(system, jar, { clientId: client.id, redirectUri: REDIRECT_URI, state }, user);
  return { jar, page };
}

describe('consent page', () => {
  it('names the client and its owner, the signed-in user, and offers Allow and Deny', async () => {
    const client = await freshClient('Acme Dashboard');
    const { page } = await consentFor(client);
    expect(page.status).toBe(200);
    expect(page.html).toContain('Authorize Acme Dashboard');
    expect(page.html).toContain('by Olivia Owner');
    expect(page.html).toContain(user.email);
    const buttons = findButtons(page.html).map((b) => [b.text, b.attributes.name, b.attributes.value]);
    expect(buttons).toEqual([
      ['Not you? Switch account', undefined, undefined],
      ['Deny', 'decision', 'deny'],
      ['Allow', 'decision', 'allow'],
    ]);
    expect(page.html).toContain('client.example');
  });

  it('a client without an owner is shown as by Latchkey', async () => {
    await provisionClient(system, 'lkc_ownerless_test_client_01', 'Ownerless Tool');
    // A provisioned client that is not first-party, so that consent is asked.
    await system.db
      .updateTable('clients')
      .set({ first_party: 0, require_pkce: 0 })
      .where('id', '=', 'lkc_ownerless_test_client_01')
      .execute();
    const page = await getConsent(
      system,
      new CookieJar(),
      { clientId: 'lkc_ownerless_test_client_01', redirectUri: REDIRECT_URI },
      user,
    );
    expect(page.html).toContain('by Latchkey');
  });

  it('CJ-01, CJ-02, CJ-04 headers: no framing, no-store, and form-action naming the verified redirect origin', async () => {
    const { page } = await consentFor(await freshClient());
    expectPageSecurityHeaders(page, 'https://client.example');
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toMatch(/form-action 'self' https:\/\/client\.example(;|$)/);
  });

  it('CJ-05 a client name with markup is rendered escaped', async () => {
    const client = await freshClient('<img src=x onerror=alert(1)>');
    const { page } = await consentFor(client);
    expect(page.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(page.html).not.toContain('<img');
  });

  it('CJ-03 Allow answers 303 (never 307/308) to the registered URI with code, state and iss; consent is recorded', async () => {
    const client = await freshClient();
    const { jar, page } = await consentFor(client, new CookieJar(), 'cj03');
    const answer = await submitDecision(system, jar, page, 'allow');
    expect(answer.status).toBe(303);
    expect(answer.html).toBe('');
    const response = parseAuthorizationRedirect(answer.location!);
    expect(response.location.startsWith(`${REDIRECT_URI}?code=`)).toBe(true);
    expect(response.state).toBe('cj03');
    expect(response.iss).toBe(system.authUrl);
    expect(answer.headers.get('referrer-policy')).toBe('no-referrer');
    expect(await hasConsented(system.db, user.id, client.id)).toBe(true);
  });

  it('OR-05 Deny: access_denied and state to the registered URI only; no code, no consent', async () => {
    const client = await freshClient();
    const { jar, page } = await consentFor(client, new CookieJar(), 'or05');
    const before = await countCodes(system);
    const answer = await submitDecision(system, jar, page, 'deny');
    expect(answer.status).toBe(303);
    expectErrorRedirect(system, answer, REDIRECT_URI, 'access_denied', 'or05');
    expect(await countCodes(system)).toBe(before);
    expect(await hasConsented(system.db, user.id, client.id)).toBe(false);
  });

  it('a decision is taken once: replaying the Allow form is 403 and mints no second code', async () => {
    const { jar, page } = await consentFor(await freshClient());
    expect((await submitDecision(system, jar, page, 'allow')).status).toBe(303);
    const before = await countCodes(system);
    const replay = await submitDecision(system, jar, page, 'allow');
    expectErrorPage(replay, 403);
    expect(await countCodes(system)).toBe(before);
  });

  it('a decision other than allow or deny: 400 page, no code, the request stays answerable', async () => {
    const { jar, page } = await consentFor(await freshClient());
    const before = await countCodes(system);
    const odd = await submitDecision(system, jar, page, 'allow', { decision: 'maybe' });
    expectErrorPage(odd, 400);
    expect(await countCodes(system)).toBe(before);
    expect((await submitDecision(system, jar, page, 'allow')).status).toBe(303);
  });

  it('a client revoked while the consent page is open: Allow gives a 400 page, no redirect, no code (RV-03)', async () => {
    const client = await freshClient();
    const { jar, page } = await consentFor(client);
    await revokeClient(system.db, system.clock, client.id);
    const before = await countCodes(system);
    const answer = await submitDecision(system, jar, page, 'allow');
    expectErrorPage(answer, 400);
    expect(await countCodes(system)).toBe(before);
  });

  it('signed out in another tab before deciding: 403, no code', async () => {
    const { jar, page } = await consentFor(await freshClient());
    const home = await fetchPage(system, jar, '/');
    const signOut = findForm(home.html, '/signout')!;
    expect((await fetchPage(system, jar, '/signout', { form: signOut.fields })).status).toBe(303);
    const before = await countCodes(system);
    const answer = await submitDecision(system, jar, page, 'allow');
    expectErrorPage(answer, 403);
    expect(await countCodes(system)).toBe(before);
  });
});

describe('CS-01 the consent form is bound to its session and its request', () => {
  it('CS-01 no CSRF token: 403, no code, and no redirect', async () => {
    const { jar, page } = await consentFor(await freshClient());
    const before = await countCodes(system);
    const answer = await submitDecision(system, jar, page, 'allow', { csrf_token: undefined });
    expectErrorPage(answer, 403);
    expect(await countCodes(system)).toBe(before);
  });

  it('CS-01 empty or wrong CSRF token: 403, no code', async () => {
    const { jar, page } = await consentFor(await freshClient());
    const before = await countCodes(system);
    expectErrorPage(await submitDecision(system, jar, page, 'allow', { csrf_token: '' }), 403);
    expectErrorPage(await submitDecision(system, jar, page, 'allow', { csrf_token: 'x'.repeat(43) }), 403);
    expectErrorPage(await submitDecision(system, jar, page, 'allow', { csrf_token: ['a', 'b'] }), 403);
    expect(await countCodes(system)).toBe(before);
  });

  it('CS-01 the token and request id of another user session: 403, no code for either user', async () => {
    const client = await freshClient();
    const attacker = new CookieJar();
    const attackerPage = await getConsent(system, attacker, { clientId: client.id, redirectUri: REDIRECT_URI }, other);
    const { jar: victim } = await consentFor(client);
    const before = await countCodes(system);
    // The attacker's whole form, posted from the victim's browser (login-CSRF style).
    const answer = await submitDecision(system, victim, attackerPage, 'allow');
    expectErrorPage(answer, 403);
    expect(await countCodes(system)).toBe(before);
    expect(await hasConsented(system.db, user.id, client.id)).toBe(false);
  });

  it('CS-01 the victim request id with the token of another session: 403', async () => {
    const client = await freshClient();
    const attackerPage = await getConsent(
      system,
      new CookieJar(),
      { clientId: client.id, redirectUri: REDIRECT_URI },
      other,
    );
    const { jar, page } = await consentFor(client);
    const before = await countCodes(system);
    const stolenToken = findForm(attackerPage.html, '/oauth/authorize/decision')!.fields.csrf_token;
    expectErrorPage(await submitDecision(system, jar, page, 'allow', { csrf_token: stolenToken }), 403);
    expect(await countCodes(system)).toBe(before);
  });

  it('CS-01 the token of another authorization request in the same session: 403; each form still works with its own', async () => {
    const [first, second] = [await freshClient('First'), await freshClient('Second')];
    const jar = new CookieJar();
    await signIn(system, jar, user);
    const pageA = await getConsent(system, jar, { clientId: first.id, redirectUri: REDIRECT_URI, state: 'A' });
    const pageB = await getConsent(system, jar, { clientId: second.id, redirectUri: REDIRECT_URI, state: 'B' });
    const tokenB = findForm(pageB.html, '/oauth/authorize/decision')!.fields.csrf_token;
    const before = await countCodes(system);
    expectErrorPage(await submitDecision(system, jar, pageA, 'allow', { csrf_token: tokenB }), 403);
    expect(await countCodes(system)).toBe(before);
    expect(await hasConsented(system.db, user.id, first.id)).toBe(false);

    const answerA = await submitDecision(system, jar, pageA, 'allow');
    expect(parseAuthorizationRedirect(answerA.location!).state).toBe('A');
    const answerB = await submitDecision(system, jar, pageB, 'allow');
    expect(parseAuthorizationRedirect(answerB.location!).state).toBe('B');
    expect(await countCodes(system)).toBe(before + 2);
  });

  it('CS-01 the session CSRF token (sign-out form) does not work for consent', async () => {
    const { jar, page } = await consentFor(await freshClient());
    const home = await fetchPage(system, jar, '/');
    const sessionToken = findForm(home.html, '/signout')!.fields.csrf_token;
    const before = await countCodes(system);
    expectErrorPage(await submitDecision(system, jar, page, 'allow', { csrf_token: sessionToken }), 403);
    expect(await countCodes(system)).toBe(before);
  });
});
