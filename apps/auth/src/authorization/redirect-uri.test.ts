import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createClient, ValidationFailed } from '@latchkey/core';
import {
  authorizeViaPages,
  CookieJar,
  fetchPage,
  openAuthorize,
  parseAuthorizationRedirect,
} from '#test/support/browserless-flow.ts';
import { makeClient } from '#test/support/fixtures.ts';
import { perFile } from '#test/support/per-file.ts';
import { useSystem } from '#test/support/system.ts';
import {
  countCodes,
  expectErrorPage,
  expectErrorRedirect,
  REDIRECT_URI,
  useConsentedBrowser,
} from './authorize.fixture.ts';

const system = useSystem();
/** `signedIn` has already consented to `client`: a valid request would redirect at once. */
const { user, client, jar: signedIn } = useConsentedBrowser(system);
const { queryClient } = perFile(async () => ({
  queryClient: (await makeClient(system, user, { redirectUri: 'https://client.example/cb?a=1' })).client,
}));

describe('RFC 9700 §2.1 redirect URI: exact string matching', () => {
  it('RU-01 the registered value, byte-identical: 303 to it with code and state', async () => {
    const result = await authorizeViaPages(system, {
      user,
      clientId: client.id,
      redirectUri: REDIRECT_URI,
      state: 'ru01',
    });
    expect(result.location.startsWith(`${REDIRECT_URI}?`)).toBe(true);
    expect(result.code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(result.state).toBe('ru01');
    expect(result.iss).toBe(system.authUrl);
  });

  const nearMisses: Array<[string, string]> = [
    ['RU-02', 'https://client.example/cb/'],
    ['RU-03', 'https://client.example:443/cb'],
    ['RU-04', 'https://CLIENT.EXAMPLE/cb'],
    ['RU-05', 'https://client.example/cb?x=1'],
    ['RU-08', 'https://client.example/cb#frag'],
    ['RU-08', 'https://client.example/cb%2F..%2Fevil'],
    ['RU-08', 'https://client.example/cb/../evil'],
    ['RU-08', 'https://client.example.evil.com/cb'],
    ['RU-08', 'https://client.example@evil.com/cb'],
    ['RU-08', 'https://evil.com/?https://client.example/cb'],
  ];
  for (const [id, redirectUri] of nearMisses) {
    it(`${id} ${redirectUri}: 400 page naming redirect_uri, no Location, no code`, async () => {
      const before = await countCodes(system);
      const page = await openAuthorize(system, signedIn, { clientId: client.id, redirectUri, state: 'x' });
      expectErrorPage(page, 400);
      expect(page.html).toContain('redirect_uri');
      expect(await countCodes(system)).toBe(before);
    });
  }

  it('RU-06 registered …/cb?a=1, request …/cb?a=1: accepted, a=1 kept and the code appended', async () => {
    const result = await authorizeViaPages(system, {
      user,
      clientId: queryClient.id,
      redirectUri: 'https://client.example/cb?a=1',
      state: 'ru06',
    });
    expect(result.location.startsWith('https://client.example/cb?a=1&code=')).toBe(true);
    const params = new URL(result.location).searchParams;
    expect(params.getAll('a')).toEqual(['1']);
    expect(result.code).toBeDefined();
    expect(result.state).toBe('ru06');
  });

  it('RU-07 registered …/cb?a=1, request …/cb?a=2: 400 page, no Location', async () => {
    const before = await countCodes(system);
    const page = await openAuthorize(system, new CookieJar(), {
      clientId: queryClient.id,
      redirectUri: 'https://client.example/cb?a=2',
    });
    expectErrorPage(page, 400);
    expect(page.html).toContain('redirect_uri');
    expect(await countCodes(system)).toBe(before);
  });

  it('RU-09 registration refuses javascript:, data:, non-loopback http, fragments, wildcards, userinfo, code/state params', async () => {
    for (const redirectUri of [
      'javascript:alert(1)',
      'data:text/html,hi',
      'http://client.example/cb',
      'https://client.example/cb#x',
      'https://*.client.example/cb',
      'https://user:pw@client.example/cb',
      'https://client.example/cb?code=1',
      'https://client.example/cb?state=1',
    ]) {
      await expect(
        createClient(system.db, system.clock, {
          ownerId: user.id,
          name: 'Bad',
          redirectUris: [redirectUri],
          redirectUrisField: 'redirect_uri',
        }),
        redirectUri,
      ).rejects.toBeInstanceOf(ValidationFailed);
    }
    const count = await system.db
      .selectFrom('clients')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('name', '=', 'Bad')
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(0);
  });

  it('RU-10 valid redirect_uri + response_type=token: 303 to it with unsupported_response_type and state', async () => {
    const page = await openAuthorize(system, new CookieJar(), {
      clientId: client.id,
      redirectUri: REDIRECT_URI,
      responseType: 'token',
      state: 'ru10',
    });
    expectErrorRedirect(system, page, REDIRECT_URI, 'unsupported_response_type', 'ru10');
  });

  it('RU-11 invalid redirect_uri + response_type=token: the page names the redirect_uri problem; no redirect', async () => {
    const page = await openAuthorize(system, new CookieJar(), {
      clientId: client.id,
      redirectUri: 'https://evil.example/cb',
      responseType: 'token',
      state: 'ru11',
    });
    expectErrorPage(page, 400);
    expect(page.html).toContain('The redirect_uri does not match any redirect URL registered for this application.');
    expect(page.html).not.toContain('response_type');
    expect(page.html).not.toContain('evil.example');
  });

  it('RU-P property: no mutation of the registered URI ever yields a Location starting with it', async () => {
    const registered = REDIRECT_URI;
    const chars = fc.constantFrom(...'abcXYZ09/.:-_~%?#&=@ '.split(''));
    const mutation = fc.oneof(
      fc.tuple(fc.nat(registered.length), chars).map(([i, c]) => registered.slice(0, i) + c + registered.slice(i)),
      fc.nat(registered.length - 1).map((i) => registered.slice(0, i) + registered.slice(i + 1)),
      fc.nat(registered.length - 1).map((i) => {
        const c = registered[i]!;
        const flipped = c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase();
        return registered.slice(0, i) + flipped + registered.slice(i + 1);
      }),
      fc.nat(registered.length - 1).map((i) => {
        const hex = registered.charCodeAt(i).toString(16).toUpperCase().padStart(2, '0');
        return `${registered.slice(0, i)}%${hex}${registered.slice(i + 1)}`;
      }),
      fc.stringMatching(/^[a-z0-9=&]{1,12}$/).map((q) => `${registered}?${q}`),
      fc.stringMatching(/^[a-z0-9]{0,8}$/).map((f) => `${registered}#${f}`),
    );
    await fc.assert(
      fc.asyncProperty(
        mutation.filter((s) => s !== registered),
        async (s) => {
          // response_type=token: if `s` were accepted, the answer would be an immediate error redirect.
          const page = await fetchPage(
            system,
            signedIn,
            `/oauth/authorize?${new URLSearchParams({ client_id: client.id, response_type: 'token', redirect_uri: s, state: 'p' }).toString()}`,
          );
          expect(page.status).toBe(400);
          expect(page.headers.get('location')).toBeNull();
          expect(page.location?.startsWith(s) ?? false).toBe(false);
        },
      ),
      { numRuns: 150, seed: 20261122 },
    );
  });

  it('RU-01 the code redirect carries no error and the registered URI unchanged up to the query', async () => {
    const result = await authorizeViaPages(system, {
      user,
      clientId: client.id,
      redirectUri: REDIRECT_URI,
      jar: signedIn,
    });
    const parsed = parseAuthorizationRedirect(result.location);
    expect(parsed.error).toBeUndefined();
    expect(result.location.split('?')[0]).toBe(REDIRECT_URI);
  });
});
