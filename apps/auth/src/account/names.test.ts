// Issue 15 §4, HD-04 (docs/hardening.md): names a person reads (client, user, token) carry no
// invisible characters, and a third-party client cannot speak in the service's name.
// Issue 26, HD-09 and HD-10: nor can a user, nor a look-alike of the name (confusable letters,
// leet digits), nor stacked marks; a redirect host mixing scripts is shown in ASCII only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, findUserByEmail, type User } from '@latchkey/core';
import { driveToDecision, CookieJar, fetchPage, findForm } from '#test/support/browserless-flow.ts';
import { makeClient, makeUser } from '#test/support/fixtures.ts';
import { startSystem, type TestSystem } from '#test/support/system.ts';
import { callAccount, issuePortalToken } from './account.fixture.ts';

let system: TestSystem;
let alice: User;
let token: string;

beforeAll(async () => {
  system = await startSystem();
  alice = await makeUser(system, 'Alice');
  token = await issuePortalToken(system, alice);
});
afterAll(async () => {
  await system?.close();
});

async function rows(table: 'clients' | 'access_tokens' | 'users'): Promise<number> {
  return (await system.db.selectFrom(table).select('id').execute()).length;
}

const INVISIBLE: Array<[string, string]> = [
  ['a right-to-left override (U+202E)', 'Evil App\u202Eppa dooG'],
  ['a zero-width space (U+200B)', 'Pay\u200Bpal'],
  ['a zero-width joiner (U+200D)', 'Weather\u200DWidget'],
  ['a zero-width no-break space (U+FEFF) inside', 'Weat\uFEFFher'],
  ['a soft hyphen (U+00AD)', 'Weath\u00ADer'],
  ['a Hangul filler (U+3164)', 'Weather\u3164'],
  ['a line separator (U+2028)', 'Weather\u2028Widget'],
];

describe('HD-04 names cannot impersonate', () => {
  it.each(INVISIBLE)(
    'HD-04 a client name with %s is 400 naming the field, and nothing is stored',
    async (_what, name) => {
      const before = await rows('clients');
      const res = await callAccount(system, 'POST', '/account/clients', {
        token,
        json: { name, redirect_uri: 'https://weather.example/cb' },
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'validation_failed', field: 'name' });
      expect(res.body.error_description).toContain('invisible');
      expect(await rows('clients')).toBe(before);
    },
  );

  it.each(INVISIBLE)('HD-04 a token name with %s is 400 naming the field', async (_what, name) => {
    const before = await rows('access_tokens');
    const res = await callAccount(system, 'POST', '/account/tokens', { token, json: { name } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'validation_failed', field: 'name' });
    expect(await rows('access_tokens')).toBe(before);
  });

  it.each(INVISIBLE)('HD-04 a user name with %s is refused at sign-up', async (_what, name) => {
    const before = await rows('users');
    await expect(
      createUser(system.db, system.clock, {
        email: `x${before}@example.test`,
        password: 'a long enough password',
        name,
      }),
    ).rejects.toMatchObject({ field: 'name' });
    expect(await rows('users')).toBe(before);
  });

  it.each([
    ['Latchkey developer portal'],
    ['LATCHKEY'],
    ['Official Latchkey Login'],
    ['L a t c h k e y'],
    ['Ｌａｔｃｈｋｅｙ'], // fullwidth, NFKC-equal
  ])('HD-04 a third-party client may not be named %j (the service’s own name)', async (name) => {
    const res = await callAccount(system, 'POST', '/account/clients', {
      token,
      json: { name, redirect_uri: 'https://weather.example/cb' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'validation_failed', field: 'name' });
  });

  it('HD-04 names in other scripts, with accents and emoji, are still accepted', async () => {
    for (const name of ['Météo – 天気 ☀️', 'Погода', 'طقس']) {
      const res = await callAccount(system, 'POST', '/account/clients', {
        token,
        json: { name, redirect_uri: 'https://weather.example/cb' },
      });
      expect(res.status, name).toBe(201);
      expect(res.body.client.name).toBe(name);
    }
  });

  it.each([
    ['a raw internationalized host', 'https://münchen.example/cb'],
    ['a raw non-ASCII path', 'https://app.example/café'],
    ['angle brackets', 'https://app.example/c<b>'],
    ['a double quote', 'https://app.example/cb?x="y"'],
    ['a backslash', 'https://app.example\\evil.example/cb'],
  ])('HD-04 a redirect URL with %s (outside RFC 3986) is 400 naming the field', async (_what, uri) => {
    const before = await rows('clients');
    const res = await callAccount(system, 'POST', '/account/clients', {
      token,
      json: { name: 'Weather', redirect_uri: uri },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'validation_failed', field: 'redirect_uri' });
    expect(await rows('clients')).toBe(before);
  });

  it('HD-04 an internationalized host is registered as xn-- and shown on the consent page in ASCII beside its Unicode form', async () => {
    const redirectUri = 'https://xn--mnchen-3ya.example/cb';
    const owner = await makeUser(system, 'Olive Owner');
    const app = await makeClient(system, owner, { name: 'Wetter', redirectUri });
    const user = await makeUser(system, 'Uma User');
    const consent = await driveToDecision(
      system,
      new CookieJar(),
      { clientId: app.client.id, redirectUri, state: 's' },
      user,
    );
    expect(consent.step).toBe('consent');
    expect(consent.html).toContain('<strong>xn--mnchen-3ya.example</strong> (münchen.example)');
  });
});

/** Consent page of a third-party client registered with this redirect URL. */
async function consentPageFor(redirectUri: string): Promise<string> {
  const owner = await makeUser(system, 'Olive Owner');
  const app = await makeClient(system, owner, { name: 'Wetter', redirectUri });
  const user = await makeUser(system, 'Uma User');
  const consent = await driveToDecision(
    system,
    new CookieJar(),
    { clientId: app.client.id, redirectUri, state: 's' },
    user,
  );
  expect(consent.step).toBe('consent');
  return consent.html;
}

// The names the finding reports; each was accepted before.
const SERVICE_USER_NAMES = [['Latchkey'], ['Latchkey Team'], ['L\u0430tchkey'] /* Cyrillic а */];
const LOOK_ALIKE_CLIENT_NAMES: Array<[string, string]> = [
  ['Lаtchkеy Portal (Cyrillic а and е)', 'L\u0430tchk\u0435y Portal'],
  ['Latchk3y Developer Portal', 'Latchk3y Developer Portal'],
  ['A and 90 combining acute accents', 'A' + '\u0301'.repeat(90)],
];
const OTHER_SCRIPTS = [
  'Nguyễn Thị Minh Khai'.normalize('NFD'), // Vietnamese, decomposed: 2 marks on ệ and ị
  'अनुष्का शर्मा',
  'สมศักดิ์ ผู้ใหญ่',
  'שָׁלוֹם כֹּהֵן',
  'مُحَمَّد',
  '山田 はなこ',
  '김민준',
];

describe('HD-09 a user cannot be named as the service', () => {
  it.each(SERVICE_USER_NAMES)('HD-09 a user named %j is refused (field name) and nothing is stored', async (name) => {
    const before = await rows('users');
    const email = `hd09-${before}@example.test`;
    await expect(
      createUser(system.db, system.clock, { email, password: 'a long enough password', name }),
    ).rejects.toMatchObject({ field: 'name', description: expect.stringContaining('Latchkey') });
    expect(await rows('users')).toBe(before);
    expect(await findUserByEmail(system.db, email)).toBeUndefined();
  });

  it('HD-09 the sign-up form shows the reason on the name field and creates no account', async () => {
    const jar = new CookieJar();
    for (const [name] of SERVICE_USER_NAMES) {
      const before = await rows('users');
      const page = await fetchPage(system, jar, '/signup');
      const email = `hd09-form-${before}@example.test`;
      const answer = await fetchPage(system, jar, '/signup', {
        form: { ...findForm(page.html, '/signup')!.fields, name, email, password: 'a long enough password' },
      });
      expect(answer.status, name).toBe(422);
      expect(answer.html).toMatch(/id="field-name-error">[^<]*Latchkey/);
      expect(await rows('users')).toBe(before);
    }
  });

  it('HD-09 names in other scripts and names near the word still sign up', async () => {
    for (const name of [...OTHER_SCRIPTS, 'Keylatch Locksmiths', 'Demo Developer']) {
      const user = await makeUser(system, name);
      expect(user.name).toBe(name);
    }
  });
});

describe('HD-10 look-alikes and stacked marks', () => {
  it.each(LOOK_ALIKE_CLIENT_NAMES)(
    'HD-10 a client named %s is 400 naming the field, and nothing is stored',
    async (_what, name) => {
      const before = await rows('clients');
      const res = await callAccount(system, 'POST', '/account/clients', {
        token,
        json: { name, redirect_uri: 'https://weather.example/cb' },
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'validation_failed', field: 'name' });
      expect(await rows('clients')).toBe(before);
    },
  );

  it('HD-10 an edit to such a name is 400 naming the field, and the name stays', async () => {
    const created = await callAccount(system, 'POST', '/account/clients', {
      token,
      json: { name: 'Weather', redirect_uri: 'https://weather.example/cb' },
    });
    expect(created.status).toBe(201);
    const id: string = created.body.client.client_id;
    for (const [, name] of LOOK_ALIKE_CLIENT_NAMES) {
      const res = await callAccount(system, 'PATCH', `/account/clients/${encodeURIComponent(id)}`, {
        token,
        json: { name },
      });
      expect(res.status, name).toBe(400);
      expect(res.body).toMatchObject({ error: 'validation_failed', field: 'name' });
    }
    const row = await system.db.selectFrom('clients').select('name').where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.name).toBe('Weather');
  });

  it.each(LOOK_ALIKE_CLIENT_NAMES)('HD-10 a user named %s is refused too', async (_what, name) => {
    const before = await rows('users');
    await expect(
      createUser(system.db, system.clock, {
        email: `hd10-${before}@example.test`,
        password: 'a long enough password',
        name,
      }),
    ).rejects.toMatchObject({ field: 'name' });
    expect(await rows('users')).toBe(before);
  });

  it('HD-10 client names in other scripts, with their marks, are still accepted', async () => {
    for (const name of OTHER_SCRIPTS) {
      const res = await callAccount(system, 'POST', '/account/clients', {
        token,
        json: { name, redirect_uri: 'https://weather.example/cb' },
      });
      expect(res.status, name).toBe(201);
      expect(res.body.client.name).toBe(name);
    }
  });

  it('HD-10 a redirect host whose Unicode form mixes scripts is shown only as xn--', async () => {
    // xn--pple-43d.example is аpple.example with a Cyrillic а.
    const html = await consentPageFor('https://xn--pple-43d.example/cb');
    expect(html).toContain('<strong>xn--pple-43d.example</strong>.');
    expect(html).not.toContain('\u0430pple');
  });

  it('HD-10 a single-script one is still shown beside its Unicode form', async () => {
    const html = await consentPageFor('https://xn--mnchen-3ya.example/cb');
    expect(html).toContain('<strong>xn--mnchen-3ya.example</strong> (münchen.example)');
  });
});
