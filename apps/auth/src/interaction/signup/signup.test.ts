import { describe, expect, it } from 'vitest';
import { findUserByEmail } from '@latchkey/core';
import {
  CookieJar,
  fetchPage,
  findButtons,
  findForm,
  findLabelledInput,
  findLinks,
  followRedirect,
  openAuthorize,
  type PageResult,
} from '#test/support/browserless-flow.ts';
import { countAllRows, makeClient, makeUser, useUsers } from '#test/support/fixtures.ts';
import { useSystem } from '#test/support/system.ts';
import {
  expectErrorPage,
  expectPageSecurityHeaders,
  REDIRECT_URI,
} from '../../authorization/authorize.fixture.ts';

// TRUST_PROXY lets HD-16 present client addresses through X-Forwarded-For.
const system = useSystem({ RATE_LIMIT_LOGIN_PER_MINUTE: '1000', TRUST_PROXY: 'loopback' });
const { existing } = useUsers(system, { existing: 'Existing User' });
let counter = 0;

function newEmail(): string {
  counter += 1;
  return `signup-${counter}-${Date.now()}@example.test`;
}

function userCount(): Promise<number> {
  return countAllRows(system, 'users');
}

async function submitSignUp(
  jar: CookieJar,
  fields: Record<string, string | string[] | undefined>,
  page?: PageResult,
): Promise<PageResult> {
  const form = page ?? (await fetchPage(system, jar, '/signup'));
  return fetchPage(system, jar, '/signup', { form: { ...findForm(form.html, '/signup')!.fields, ...fields } });
}

describe('sign-up page', () => {
  it('has Name, Email and Password fields tied to labels and a Create account button', async () => {
    const page = await fetchPage(system, new CookieJar(), '/signup');
    expect(page.status).toBe(200);
    for (const [name, label] of [
      ['name', 'Name'],
      ['email', 'Email'],
      ['password', 'Password'],
    ]) {
      expect(findLabelledInput(page.html, label!)).toMatchObject({ name });
    }
    expect(findLabelledInput(page.html, 'Password')).toMatchObject({ type: 'password', autocomplete: 'new-password' });
    expect(findButtons(page.html)).toEqual([
      { text: 'Create account', attributes: expect.objectContaining({ type: 'submit' }) },
    ]);
    expect(findLinks(page.html)).toContainEqual({ text: 'Sign in', href: '/signin' });
    expectPageSecurityHeaders(page);
  });
});

describe('sign-up', () => {
  it('success: the account exists (password hashed), the browser is signed in on a new session id', async () => {
    const jar = new CookieJar();
    const page = await fetchPage(system, jar, '/signup');
    const before = jar.get('lk_auth_sid');
    const email = newEmail();
    const answer = await submitSignUp(jar, { name: 'Grace Hopper', email, password: 'correct horse battery' }, page);
    expect(answer.status).toBe(303);
    expect(answer.location).toBe(`${system.authUrl}/`);
    expect(jar.get('lk_auth_sid')).not.toBe(before);
    const user = await findUserByEmail(system.db, email);
    expect(user?.name).toBe('Grace Hopper');
    const row = await system.db
      .selectFrom('users')
      .select('password_hash')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^scrypt\$/);
    expect(row.password_hash).not.toContain('correct horse');
    const home = await fetchPage(system, jar, '/');
    expect(home.html).toContain(email);
  });

  it('validation errors are shown next to their field with an alert; name and email are kept, the password is not', async () => {
    const before = await userCount();
    const answer = await submitSignUp(new CookieJar(), {
      name: 'Ada <b>',
      email: 'not-an-email',
      password: 'secret-pw',
    });
    expect(answer.status).toBe(422);
    expect(answer.html).toContain('role="alert"');
    expect(answer.html).toMatch(
      /<p class="field-error" id="field-email-error">\s*Enter a valid email address.\s*<\/p>/,
    );
    expect(findLabelledInput(answer.html, 'Email')).toMatchObject({
      'aria-describedby': 'field-email-error',
      'aria-invalid': 'true',
    });
    expect(answer.html).toContain('value="Ada &lt;b&gt;"');
    expect(answer.html).toContain('value="not-an-email"');
    expect(answer.html).not.toContain('secret-pw');
    expectPageSecurityHeaders(answer);
    expect(await userCount()).toBe(before);
  });

  it('a short password and an empty name are refused with their own messages', async () => {
    const before = await userCount();
    const short = await submitSignUp(new CookieJar(), { name: 'Ada', email: newEmail(), password: 'short' });
    expect(short.status).toBe(422);
    expect(short.html).toContain('id="field-password-error">Use a password of 12 to 1024 characters.');
    const noName = await submitSignUp(new CookieJar(), { name: '   ', email: newEmail(), password: 'plum orbit canvas' });
    expect(noName.status).toBe(422);
    expect(noName.html).toContain('id="field-name-error">Enter a name of 1 to 100 characters.');
    expect(await userCount()).toBe(before);
  });

  it('HD-05 a common password, one made of the account\'s details or of the product\'s name is refused, saying why; nothing stored', async () => {
    const before = await userCount();
    const cases = [
      { password: '123456789012', why: 'This is a commonly used password.' },
      { password: 'password1234', why: 'This is similar to a commonly used password.' },
      { password: 'qwertyuiop12', why: 'This is similar to a commonly used password.' },
      { password: 'Grace Hopper 1906', why: 'It is made of your name, your email address or the name of this service.' },
      { password: 'latchkey2026!', why: 'It is made of your name, your email address or the name of this service.' },
      { password: 'Latchkey Latchkey', why: 'It is made of your name, your email address or the name of this service.' },
    ];
    for (const { password, why } of cases) {
      const email = newEmail();
      const answer = await submitSignUp(new CookieJar(), { name: 'Grace Hopper', email, password });
      expect(answer.status, password).toBe(422);
      expect(answer.html).toMatch(/id="field-password-error">Choose a password that is harder to guess\./);
      expect(answer.html).toContain(why);
      expect(answer.html).not.toContain(password.replace(/&/g, '&amp;'));
      const own = await submitSignUp(new CookieJar(), { name: 'Grace Hopper', email, password: email });
      expect(own.html).toContain('It is made of your name, your email address or the name of this service.');
    }
    expect(await userCount()).toBe(before);
  });

  it('HD-05 a long passphrase is welcome: 200 characters of words sign up (no limit below 64)', async () => {
    const passphrase = 'the quick brown fox jumps over the lazy dog while a purple lagoon hums '.repeat(3).slice(0, 200);
    const answer = await submitSignUp(new CookieJar(), { name: 'Long Phrase', email: newEmail(), password: passphrase });
    expect(answer.status).toBe(303);
  });

  it('a duplicate email (any case) is refused on the email field; no second account', async () => {
    const before = await userCount();
    const answer = await submitSignUp(new CookieJar(), {
      name: 'Copy',
      email: existing.email.toUpperCase(),
      password: 'plum orbit canvas',
    });
    expect(answer.status).toBe(422);
    // AX-08: "Sign in instead" became a link (see the AX-08 test below); the sentence is unchanged.
    expect(answer.html).toContain('id="field-email-error">An account with this email already exists. <a href="/signin">Sign in instead</a>.');
    expect(await userCount()).toBe(before);
  });

  it('AX-08 sign-up with every field wrong shows each field\'s error at once, the first invalid field autofocused, aria-invalid/aria-describedby set, nothing created', async () => {
    const before = await userCount();
    const answer = await submitSignUp(new CookieJar(), { name: '   ', email: 'not-an-email', password: 'short' });
    expect(answer.status).toBe(422);
    expect(answer.html).toContain('<div class="alert" role="alert">Please correct the highlighted fields and try again.</div>');
    const messages = {
      name: 'Enter a name of 1 to 100 characters.',
      email: 'Enter a valid email address.',
      password: 'Use a password of 12 to 1024 characters.',
    };
    for (const [field, message] of Object.entries(messages)) {
      expect(answer.html, field).toContain(`<p class="field-error" id="field-${field}-error">${message}`);
    }
    expect(findLabelledInput(answer.html, 'Name')).toMatchObject({ 'aria-invalid': 'true', 'aria-describedby': 'field-name-error', autofocus: '' });
    expect(findLabelledInput(answer.html, 'Email')).toMatchObject({ 'aria-invalid': 'true', 'aria-describedby': 'field-email-error', value: 'not-an-email' });
    expect(findLabelledInput(answer.html, 'Password')).toMatchObject({
      'aria-invalid': 'true',
      'aria-describedby': 'field-password-hint field-password-error',
      value: '',
    });
    expect(answer.html.match(/\bautofocus\b/g)).toHaveLength(1);
    // Name right, email and password wrong: the email is the first invalid field, the name is kept.
    const later = await submitSignUp(new CookieJar(), { name: 'Ada Lovelace', email: 'ada@', password: 'password1234' });
    expect(later.status).toBe(422);
    expect(later.html).not.toContain('id="field-name-error"');
    expect(findLabelledInput(later.html, 'Name')).toMatchObject({ value: 'Ada Lovelace' });
    expect(findLabelledInput(later.html, 'Name')).not.toHaveProperty('autofocus');
    expect(findLabelledInput(later.html, 'Email')).toMatchObject({ 'aria-invalid': 'true', autofocus: '' });
    expect(later.html).toMatch(/id="field-password-error">Choose a password that is harder to guess\./);
    expect(later.html).not.toContain('password1234');
    expect(await userCount()).toBe(before);
  });

  it('AX-08 \'Sign in instead\' is a link to sign-in, keeping the pending authorization request', async () => {
    const answer = await submitSignUp(new CookieJar(), { name: 'Copy', email: existing.email, password: 'plum orbit canvas' });
    expect(answer.status).toBe(422);
    expect(findLinks(answer.html)).toContainEqual({ text: 'Sign in instead', href: '/signin' });
    expect(findButtons(answer.html).map((button) => button.text)).toEqual(['Create account']);
    expect(findLabelledInput(answer.html, 'Email')).toMatchObject({ 'aria-invalid': 'true', autofocus: '' });
    const owner = await makeUser(system, 'Link Owner');
    const { client } = await makeClient(system, owner, { redirectUri: REDIRECT_URI, name: 'Link Checker' });
    const jar = new CookieJar();
    const signInPage = await openAuthorize(system, jar, { clientId: client.id, redirectUri: REDIRECT_URI, state: 'ax' });
    const signUpLink = findLinks(signInPage.html).find((link) => link.text === 'Create account')!.href;
    const page = await fetchPage(system, jar, signUpLink);
    const refused = await submitSignUp(jar, { name: 'Copy', email: existing.email, password: 'plum orbit canvas' }, page);
    const link = findLinks(refused.html).find((l) => l.text === 'Sign in instead')!;
    expect(link.href).toBe(signUpLink.replace(/^\/signup/, '/signin'));
  });

  it('HD-16 sign-ups that hit an existing account are limited per address: the 6th in an hour is refused (429) whatever the email, new emails do not count, another address is unaffected', async () => {
    const owners = await Promise.all(Array.from({ length: 6 }, (_, i) => makeUser(system, `Owner ${i}`)));
    const probe = async (ip: string, email: string) => {
      const jar = new CookieJar();
      const headers = { 'x-forwarded-for': ip };
      const page = await fetchPage(system, jar, '/signup', { headers });
      return fetchPage(system, jar, '/signup', {
        form: { ...findForm(page.html, '/signup')!.fields, name: 'Prober', email, password: 'plum orbit canvas' },
        headers,
      });
    };
    const ip = '198.18.16.1';
    // New emails, and forms refused for other reasons, are not counted.
    for (let i = 0; i < 6; i += 1) expect((await probe(ip, newEmail())).status).toBe(303);
    expect((await probe(ip, 'not-an-email')).status).toBe(422);
    // Five probes of existing accounts are answered, all at once or not...
    const answered = await Promise.all(owners.slice(0, 5).map((o) => probe(ip, o.email)));
    for (const answer of answered) {
      expect(answer.status).toBe(422);
      expect(answer.html).toContain('An account with this email already exists.');
    }
    // ...the sixth is refused without saying, as is any sign-up from that address for the hour.
    const before = await userCount();
    for (const email of [owners[5]!.email, newEmail()]) {
      const refused = await probe(ip, email);
      expect(refused.status).toBe(429);
      expect(refused.html).not.toContain('already exists');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(60);
      expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(3600);
      expectPageSecurityHeaders(refused);
    }
    expect(await userCount()).toBe(before);
    const elsewhere = await probe('198.18.16.2', owners[5]!.email);
    expect(elsewhere.status).toBe(422);
    expect(elsewhere.html).toContain('An account with this email already exists.');
  });

  it('HD-13 signing up remembers the browser for the new account (lk_auth_device: HttpOnly, SameSite=Lax, a year)', async () => {
    const jar = new CookieJar();
    const answer = await submitSignUp(jar, { name: 'Device Owner', email: newEmail(), password: 'plum orbit canvas' });
    expect(answer.status).toBe(303);
    const cookie = answer.headers.getSetCookie().find((c) => c.startsWith('lk_auth_device='))!;
    expect(cookie).toMatch(
      /^lk_auth_device=[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}; Max-Age=31536000; Path=\/; HttpOnly; SameSite=Lax$/,
    );
  });

  it('a malformed form (repeated or missing fields) is a 422 page, never 500', async () => {
    const before = await userCount();
    const repeated = await submitSignUp(new CookieJar(), {
      name: ['a', 'b'],
      email: newEmail(),
      password: 'plum orbit canvas',
    });
    expect(repeated.status).toBe(422);
    const missing = await submitSignUp(new CookieJar(), { name: 'A', email: newEmail() });
    expect(missing.status).toBe(422);
    expect(await userCount()).toBe(before);
  });

  it('CSRF: without the token, 403 and no account', async () => {
    const before = await userCount();
    const answer = await submitSignUp(new CookieJar(), {
      name: 'X',
      email: newEmail(),
      password: 'plum orbit canvas',
      csrf_token: undefined,
    });
    expectErrorPage(answer, 403);
    expect(await userCount()).toBe(before);
  });

  it('an oversized form is 413, never 500', async () => {
    const answer = await submitSignUp(new CookieJar(), {
      name: 'x'.repeat(20_000),
      email: newEmail(),
      password: 'plum orbit canvas',
    });
    expectErrorPage(answer, 413);
  });

  it('AZ-20 signing up from an authorization request continues to its consent page', async () => {
    const owner = await makeUser(system, 'Client Owner');
    const { client } = await makeClient(system, owner, { redirectUri: REDIRECT_URI, name: 'Photo Printer' });
    const jar = new CookieJar();
    const signInPage = await openAuthorize(system, jar, {
      clientId: client.id,
      redirectUri: REDIRECT_URI,
      state: 'su',
    });
    const link = /<a href="([^"]+)">Create account<\/a>/.exec(signInPage.html)![1]!.replace(/&amp;/g, '&');
    expect(link).toMatch(/^\/signup\?request=/);
    const page = await fetchPage(system, jar, link);
    expect(page.html).toContain('Photo Printer');
    expectPageSecurityHeaders(page, 'https://client.example');
    const answer = await submitSignUp(jar, { name: 'New Person', email: newEmail(), password: 'plum orbit canvas' }, page);
    expect(answer.status).toBe(303);
    expect(answer.location).toContain('/oauth/authorize/continue?request=');
    const consent = await followRedirect(system, jar, answer);
    expect(consent.step).toBe('consent');
    expect(consent.html).toContain('Photo Printer');
  });
});
