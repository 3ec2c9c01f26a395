import { describe, expect, it } from 'vitest';
import { DEVICE_CODE_TTL_MS, formatUserCode, type Client } from '@latchkey/core';
import {
  CookieJar,
  fetchPage,
  findButtons,
  findForm,
  findLabelledInput,
  signIn,
  submitSignIn,
} from '#test/support/browserless-flow.ts';
import { countAllRows, useUsers } from '#test/support/fixtures.ts';
import { useSystem } from '#test/support/system.ts';
import { expectErrorPage, expectPageSecurityHeaders } from '../../authorization/authorize.fixture.ts';
import { insertSelfRegisteredClient } from '../../authorization/consent/self-registered.fixture.ts';
import { decide, deviceRow, enterCode, follow, makeDeviceClient, pollToken, startDevice } from './device.fixture.ts';

// Wrong codes below would otherwise reach the default limit; device-rate-limit.test.ts covers it.
const system = useSystem({ RATE_LIMIT_LOGIN_PER_MINUTE: '1000' });
const { owner, user, other } = useUsers(system, { owner: 'Olivia Owner', user: 'Ada Lovelace', other: 'Grace Hopper' });
const INVALID = 'That code is not valid or has expired.';

function poll(client: Client, deviceCode: string) {
  return pollToken(system, client, deviceCode);
}

async function signedIn(who = user): Promise<CookieJar> {
  const jar = new CookieJar();
  expect((await signIn(system, jar, who)).status).toBe(303);
  return jar;
}

/** A signed-in browser that entered the code: the device consent page. */
async function consentFor(jar: CookieJar, userCode: string) {
  const entered = await enterCode(system, jar, userCode);
  expect(entered.status).toBe(303);
  expect(new URL(entered.location!).pathname).toBe('/device/confirm');
  return follow(system, jar, entered);
}

describe('DV-13 the verification page', () => {
  it('DV-13 GET /device: one Code field (autocomplete off, autocapitalize characters, inputmode text), a CSRF-protected form, mobile viewport; stores nothing', async () => {
    const sessions = await countAllRows(system, 'sessions');
    const page = await fetchPage(system, new CookieJar(), '/device');
    expect(page.status).toBe(200);
    expect(findLabelledInput(page.html, 'Code')).toMatchObject({
      name: 'user_code',
      type: 'text',
      autocomplete: 'off',
      autocapitalize: 'characters',
      inputmode: 'text',
    });
    const form = findForm(page.html, '/device')!;
    expect(form.method).toBe('post');
    expect(form.fields.csrf_token).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(findButtons(page.html)).toEqual([
      { text: 'Continue', attributes: expect.objectContaining({ type: 'submit' }) },
    ]);
    // 390 px: the shared layout's viewport and stylesheet (its narrow-screen rules).
    expect(page.html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1" />');
    expect(page.html).toContain('href="/assets/latchkey.css"');
    expectPageSecurityHeaders(page);
    expect(await countAllRows(system, 'sessions')).toBe(sessions);
  });
});

describe('DV-14 the code in any case, with or without the hyphen', () => {
  for (const shape of ['as shown', 'lower case', 'no hyphen', 'spaces around'] as const) {
    it(`DV-14 ${shape}: accepted, on to the consent page`, async () => {
      const client = await makeDeviceClient(system, owner);
      const { userCode } = await startDevice(system, client);
      const typed = {
        'as shown': formatUserCode(userCode),
        'lower case': formatUserCode(userCode).toLowerCase(),
        'no hyphen': userCode.toLowerCase(),
        'spaces around': `  ${userCode.slice(0, 4)} ${userCode.slice(4)} `,
      }[shape];
      const consent = await consentFor(await signedIn(), typed);
      expect(consent.status).toBe(200);
      expect(consent.html).toContain(formatUserCode(userCode));
    });
  }
});

describe('DV-15 a wrong code', () => {
  it('DV-15 unknown, malformed, expired and already decided codes get the same 422 page; nothing changes', async () => {
    const jar = await signedIn();
    const client = await makeDeviceClient(system, owner);
    const live = await startDevice(system, client);
    const decidedClient = await makeDeviceClient(system, owner);
    const decided = await startDevice(system, decidedClient);
    await decide(system, jar, await consentFor(jar, decided.userCode), 'deny');
    const expiringClient = await makeDeviceClient(system, owner);
    const expiring = await startDevice(system, expiringClient);
    system.clock.advance(DEVICE_CODE_TTL_MS);

    const unknown = live.userCode === 'BBBBBBBB' ? 'CCCCCCCC' : 'BBBBBBBB';
    const pages = [];
    for (const code of [unknown, 'WDJB-MJH', 'AEIOU123', '', decided.userCode, expiring.userCode]) {
      const page = await enterCode(system, jar, code);
      expect(page.status).toBe(422);
      expect(page.location).toBeUndefined();
      expect(page.html).toContain(`<div class="alert" role="alert">${INVALID}</div>`);
      expectPageSecurityHeaders(page);
      pages.push(page.html.replace(/value="[^"]*"/g, ''));
    }
    // No hint which: the pages differ only in the values the form carries back.
    expect(new Set(pages).size).toBe(1);
    expect(await deviceRow(system, expiringClient.id)).toEqual({ status: 'pending', user_id: null });
    expect(await deviceRow(system, decidedClient.id)).toMatchObject({ status: 'denied' });
  });

  it('DV-15 a malformed form (repeated field) is the same 422, never 500', async () => {
    const jar = await signedIn();
    const page = await fetchPage(system, jar, '/device');
    const answer = await fetchPage(system, jar, '/device', {
      form: { ...findForm(page.html, '/device')!.fields, user_code: ['BCDFGHJK', 'BCDFGHJK'] },
    });
    expect(answer.status).toBe(422);
    expect(answer.html).toContain(INVALID);
  });
});

describe('DV-17 DV-19 signed out: through sign-in and back to the consent', () => {
  it('DV-19 a good code from a signed-out browser goes to sign-in (the code not in the URL), then straight to the consent page', async () => {
    const client = await makeDeviceClient(system, owner);
    const { userCode } = await startDevice(system, client);
    const jar = new CookieJar();
    const sessions = await countAllRows(system, 'sessions');
    const entered = await enterCode(system, jar, userCode.toLowerCase());
    expect(entered.status).toBe(303);
    const signInUrl = new URL(entered.location!);
    expect(signInUrl.pathname).toBe('/signin');
    expect(entered.location!.toUpperCase()).not.toContain(userCode);
    // HD-06: still nothing stored for a visitor.
    expect(await countAllRows(system, 'sessions')).toBe(sessions);

    const signInPage = await follow(system, jar, entered);
    expect(signInPage.step).toBe('signin');
    const signedInAnswer = await submitSignIn(system, jar, signInPage, user);
    expect(signedInAnswer.status).toBe(303);
    expect(new URL(signedInAnswer.location!).pathname).toBe('/device/confirm');
    const consent = await follow(system, jar, signedInAnswer);
    expect(consent.status).toBe(200);
    expect(consent.html).toContain('Only continue if you started this yourself');
    expect(consent.html).toContain(formatUserCode(userCode));
    expect(await deviceRow(system, client.id)).toEqual({ status: 'pending', user_id: null });

    expect((await decide(system, jar, consent, 'approve')).status).toBe(200);
    expect((await deviceRow(system, client.id)).user_id).toBe(user.id);
  });

  it('DV-17 the sealed return path works in that browser only: another browser signed in gets the invalid-code page', async () => {
    const client = await makeDeviceClient(system, owner);
    const { userCode } = await startDevice(system, client);
    const entered = await enterCode(system, new CookieJar(), userCode);
    const returnTo = new URL(entered.location!).searchParams.get('return_to')!;
    const elsewhere = await fetchPage(system, await signedIn(other), returnTo);
    expect(elsewhere.status).toBe(422);
    expect(elsewhere.html).toContain(INVALID);
    expect(findForm(elsewhere.html, '/device/decision')).toBeUndefined();
  });

  it('DV-17 a decision must name a verification of this session: a made-up request is refused (403)', async () => {
    const jar = await signedIn();
    const client = await makeDeviceClient(system, owner);
    const { userCode } = await startDevice(system, client);
    const consent = await consentFor(jar, userCode);
    const refused = await decide(system, await signedIn(other), consent, 'approve');
    expectErrorPage(refused, 403);
    expect(await deviceRow(system, client.id)).toEqual({ status: 'pending', user_id: null });
  });
});

describe('DV-18 the device consent page', () => {
  it('DV-18 names the app and its owner, the scopes in the consent page’s words, that a device is asking with its code, and Approve / Deny', async () => {
    const client = await makeDeviceClient(system, owner, 'Terminal <Tool>');
    const { userCode } = await startDevice(system, client, ['openid', 'profile', 'email']);
    const consent = await consentFor(await signedIn(), userCode);
    expect(consent.status).toBe(200);
    expect(consent.html).toContain('Authorize Terminal &lt;Tool&gt;');
    expect(consent.html).toContain('by Olivia Owner');
    expect(consent.html).toContain('A device is asking to sign in to your Latchkey account');
    expect(consent.html).toContain(`<strong class="user-code">${formatUserCode(userCode)}</strong>`);
    expect(consent.html).toContain('Only continue if you started this yourself');
    for (const sentence of [
      'Sign you in with your Latchkey account',
      'See your user id and name',
      'See your email address',
    ]) {
      expect(consent.html).toContain(sentence);
    }
    expect(consent.html).toContain(user.email);
    expect(findButtons(consent.html).map((b) => [b.text, b.attributes.value])).toEqual([
      ['Deny', 'deny'],
      ['Approve', 'approve'],
    ]);
    expectPageSecurityHeaders(consent);
  });
});

describe('DV-18 a client nobody registered', () => {
  it('DV-18 CM-15 a metadata-document client is named by its host, its own name only as a claim, with the unverified note; the done page says "an app from" its host', async () => {
    const inserted = await insertSelfRegisteredClient(system.db, system.clock, {
      registration: 'metadata_document',
      id: 'https://cli.example/client.json',
      name: 'Official Latchkey CLI',
    });
    await system.db.updateTable('clients').set({ device_grant: 1 }).where('id', '=', inserted.id).execute();
    const client = { ...inserted, deviceGrant: true };
    const { userCode } = await startDevice(system, client, ['profile']);
    const jar = await signedIn();
    const consent = await consentFor(jar, userCode);
    expect(consent.html).toContain('An app from <strong class="app-host">cli.example</strong>');
    expect(consent.html).toContain('It calls itself “Official Latchkey CLI”');
    expect(consent.html).toContain('Latchkey has not verified this application.');
    expect(consent.html).not.toContain('Authorize Official Latchkey CLI');
    const done = await decide(system, jar, consent, 'approve');
    expect(done.html).toContain('<strong>an app from cli.example</strong>');
  });
});

describe('DV-20 the decision reaches the device', () => {
  it('DV-20 approve: "You can return to your device", and the device’s next poll gets a token pair for this user', async () => {
    const client = await makeDeviceClient(system, owner);
    const { userCode, deviceCode } = await startDevice(system, client);
    const jar = await signedIn();
    const done = await decide(system, jar, await consentFor(jar, userCode), 'approve');
    expect(done.status).toBe(200);
    expect(done.html).toContain('You can return to your device');
    const tokens = await poll(client, deviceCode);
    expect(tokens.status).toBe(200);
    expect(tokens.body).toMatchObject({ token_type: 'Bearer', access_token: expect.any(String) });
    expect(tokens.body.refresh_token).toEqual(expect.any(String));
    expect(await deviceRow(system, client.id)).toEqual({ status: 'redeemed', user_id: user.id });
  });

  it('DV-20 deny: "Denied", and the device’s poll gets access_denied', async () => {
    const client = await makeDeviceClient(system, owner);
    const { userCode, deviceCode } = await startDevice(system, client);
    const jar = await signedIn();
    const done = await decide(system, jar, await consentFor(jar, userCode), 'deny');
    expect(done.status).toBe(200);
    expect(done.html).toContain('<h1 id="page-title">Denied</h1>');
    expect(await poll(client, deviceCode)).toMatchObject({ status: 400, body: { error: 'access_denied' } });
  });

  it('DV-20 a decision is taken once: posting the same form again gets the refusal, nothing changes', async () => {
    const client = await makeDeviceClient(system, owner);
    const { userCode } = await startDevice(system, client);
    const jar = await signedIn();
    const consent = await consentFor(jar, userCode);
    expect((await decide(system, jar, consent, 'deny')).status).toBe(200);
    expectErrorPage(await decide(system, jar, consent, 'approve'), 403);
    expect(await deviceRow(system, client.id)).toMatchObject({ status: 'denied' });
  });
});

describe('DV-21 CSRF and one user per code', () => {
  it('DV-21 no CSRF token, or another session’s: 403 and the code stays pending', async () => {
    const client = await makeDeviceClient(system, owner);
    const { userCode } = await startDevice(system, client);
    const jar = await signedIn();
    expectErrorPage(await enterCode(system, jar, userCode, { overrides: { csrf_token: undefined } }), 403);
    const consent = await consentFor(jar, userCode);
    expectErrorPage(await decide(system, jar, consent, 'approve', { csrf_token: undefined }), 403);
    const foreign = findForm((await fetchPage(system, await signedIn(other), '/device')).html, '/device')!.fields;
    expectErrorPage(await decide(system, jar, consent, 'approve', { csrf_token: foreign.csrf_token }), 403);
    expect(await deviceRow(system, client.id)).toEqual({ status: 'pending', user_id: null });
  });

  it('DV-21 two users with the same code: the first to decide wins, the second gets the invalid-code page', async () => {
    const client = await makeDeviceClient(system, owner);
    const { userCode, deviceCode } = await startDevice(system, client);
    const ada = await signedIn(user);
    const grace = await signedIn(other);
    const adaConsent = await consentFor(ada, userCode);
    const graceConsent = await consentFor(grace, userCode);
    expect((await decide(system, ada, adaConsent, 'approve')).status).toBe(200);
    const late = await decide(system, grace, graceConsent, 'approve');
    expect(late.status).toBe(422);
    expect(late.html).toContain(INVALID);
    expect((await enterCode(system, grace, userCode)).status).toBe(422);
    expect(await deviceRow(system, client.id)).toEqual({ status: 'approved', user_id: user.id });
    expect((await poll(client, deviceCode)).status).toBe(200);
  });

  it('DV-21 two users deciding at once: exactly one decision lands', async () => {
    const client = await makeDeviceClient(system, owner);
    const { userCode } = await startDevice(system, client);
    const ada = await signedIn(user);
    const grace = await signedIn(other);
    const [adaConsent, graceConsent] = [await consentFor(ada, userCode), await consentFor(grace, userCode)];
    const answers = await Promise.all([
      decide(system, ada, adaConsent, 'approve'),
      decide(system, grace, graceConsent, 'deny'),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 422]);
    const row = await deviceRow(system, client.id);
    const winner =
      answers[0]!.status === 200 ? { status: 'approved', user_id: user.id } : { status: 'denied', user_id: other.id };
    expect(row).toEqual(winner);
  });
});

describe('DV-22 verification_uri_complete', () => {
  it('DV-22 GET /device?user_code=… fills in the code and asks to continue; GET never approves', async () => {
    const client = await makeDeviceClient(system, owner);
    const { userCode, deviceCode } = await startDevice(system, client);
    const jar = await signedIn();
    const page = await fetchPage(system, jar, `/device?user_code=${userCode.toLowerCase()}`);
    expect(page.status).toBe(200);
    expect(findLabelledInput(page.html, 'Code')).toMatchObject({ value: formatUserCode(userCode) });
    expect(findForm(page.html, '/device/decision')).toBeUndefined();
    expect(await deviceRow(system, client.id)).toEqual({ status: 'pending', user_id: null });
    expect(await poll(client, deviceCode)).toMatchObject({ status: 400, body: { error: 'authorization_pending' } });
    // The consent page is a GET too: it shows the request and decides nothing.
    const consent = await consentFor(jar, userCode);
    await fetchPage(system, jar, new URL(consent.url).pathname + new URL(consent.url).search);
    expect(await deviceRow(system, client.id)).toEqual({ status: 'pending', user_id: null });
  });

  it('DV-22 a user_code that is not a code is shown back as typed, escaped, and looked up only when posted', async () => {
    const page = await fetchPage(system, new CookieJar(), '/device?user_code=%22%3E%3Cscript%3E');
    expect(page.status).toBe(200);
    expect(page.html).not.toContain('<script>');
    expect(findLabelledInput(page.html, 'Code')).toMatchObject({ value: '"><script>' });
  });
});
