// Issue 19: the consent page shows what the developer registered about the application, a
// note when it runs on the user's own computer, and "Not you? Switch account".
import { describe, expect, it } from 'vitest';
import { updateClient, type Client } from '@latchkey/core';
import {
  CookieJar,
  decodeHtmlEntities,
  fetchPage,
  findForm,
  findLinks,
  getConsent,
  parseAuthorizationRedirect,
  submitDecision,
  submitSignIn,
} from '#test/support/browserless-flow.ts';
import { makeClient, useUsers } from '#test/support/fixtures.ts';
import { useSystem } from '#test/support/system.ts';
import { countCodes, expectErrorPage, REDIRECT_URI } from '../authorize.fixture.ts';

const system = useSystem();
const { ada, grace, owner } = useUsers(system, { ada: 'Ada Lovelace', grace: 'Grace Hopper', owner: 'Olivia Owner' });

async function clientWith(details: Parameters<typeof updateClient>[3], redirectUri = REDIRECT_URI): Promise<Client> {
  const { client } = await makeClient(system, owner, { redirectUri });
  return updateClient(system.db, client.id, owner.id, details);
}

describe('issue 19: the consent page shows the application’s details', () => {
  it('CE-09 description, homepage domain as a link, privacy policy and terms links', async () => {
    const client = await clientWith({
      name: 'Weather Station',
      description: 'Forecasts for your garden.',
      clientUri: 'https://weather.example/home',
      policyUri: 'https://weather.example/privacy',
      tosUri: 'https://weather.example/terms',
    });
    const page = await getConsent(system, new CookieJar(), { clientId: client.id, redirectUri: REDIRECT_URI }, ada);
    expect(page.html).toContain('Authorize Weather Station');
    expect(page.html).toContain('by Olivia Owner');
    expect(page.html).toContain('<p class="app-description">Forecasts for your garden.</p>');
    const links = findLinks(page.html);
    expect(links).toEqual(
      expect.arrayContaining([
        { text: 'weather.example', href: 'https://weather.example/home' },
        { text: 'privacy policy', href: 'https://weather.example/privacy' },
        { text: 'terms of service', href: 'https://weather.example/terms' },
      ]),
    );
    // Each opens apart from this page and is told nothing about it.
    expect(
      page.html.match(/<a href="https:\/\/weather\.example[^"]*" target="_blank" rel="noopener noreferrer">/g),
    ).toHaveLength(3);
    expect(page.html).not.toContain('This application runs on your own computer');
  });

  it('CE-09 without details the page says nothing of them', async () => {
    const client = await clientWith({});
    const page = await getConsent(system, new CookieJar(), { clientId: client.id, redirectUri: REDIRECT_URI }, ada);
    expect(page.html).not.toContain('app-description');
    expect(page.html).not.toContain('privacy policy');
    expect(page.html).not.toContain('target="_blank"');
  });

  it('CE-09 only a privacy policy: one link, no dangling “and”', async () => {
    const client = await clientWith({ policyUri: 'https://weather.example/privacy' });
    const page = await getConsent(system, new CookieJar(), { clientId: client.id, redirectUri: REDIRECT_URI }, ada);
    expect(page.html).toMatch(/read its <a [^>]*>privacy policy<\/a>\.<\/p>/);
  });

  it('CE-09 a loopback redirect URL gets the note “This application runs on your own computer”', async () => {
    for (const uri of ['http://127.0.0.1:8765/cb', 'http://localhost:5173/cb', 'http://[::1]:9000/cb']) {
      const client = await clientWith({}, uri);
      const page = await getConsent(system, new CookieJar(), { clientId: client.id, redirectUri: uri }, ada);
      expect(page.html, uri).toContain('This application runs on your own computer.');
    }
  });

  it('AX-12 a long homepage and redirect host wrap after their dots and hyphens, never mid-word; the text is unchanged', async () => {
    const host = 'staging-eu-west.weather-forecasts.example';
    const redirectUri = `https://${host}/oauth/callback`;
    const client = await clientWith({ clientUri: `https://${host}/home` }, redirectUri);
    const page = await getConsent(system, new CookieJar(), { clientId: client.id, redirectUri }, ada);
    const wrapped = 'staging-<wbr>eu-<wbr>west.<wbr>weather-<wbr>forecasts.<wbr>example';
    expect(page.html).toContain(`<strong>${wrapped}</strong>.`);
    expect(page.html).toContain(`rel="noopener noreferrer">${wrapped}</a>`);
    // Read aloud or copied, <wbr> is nothing: the link is named by the host as written.
    expect(findLinks(page.html)).toContainEqual({ text: host, href: `https://${host}/home` });
    expect(page.html).not.toMatch(/\w<wbr>\w/);
  });

  it('CE-11 markup in every field the developer controls is shown as text', async () => {
    const client = await clientWith({
      name: '<img src=x onerror=alert(1)>',
      description: '<script>alert("d")</script> & <b>bold</b>',
      clientUri: "https://evil.example/?q='onmouseover='alert(1)",
      policyUri: "https://evil.example/p?a=1&b='><svg/onload=alert(2)>".replace(/[<>]/g, ''),
      tosUri: 'https://evil.example/t?x=%3Cscript%3E',
    });
    const page = await getConsent(system, new CookieJar(), { clientId: client.id, redirectUri: REDIRECT_URI }, ada);
    expect(page.html).not.toMatch(/<script|<img|<b>|<svg\/onload/);
    expect(page.html).toContain('&lt;script&gt;alert(&quot;d&quot;)&lt;/script&gt; &amp; &lt;b&gt;bold&lt;/b&gt;');
    expect(page.html).toContain('href="https://evil.example/?q=&#39;onmouseover=&#39;alert(1)"');
    expect(page.html).not.toMatch(/ onmouseover=/);
    // What a browser reads back is exactly what was registered.
    const hrefs = findLinks(page.html).map((link) => decodeHtmlEntities(link.href));
    expect(hrefs).toContain("https://evil.example/?q='onmouseover='alert(1)");
  });
});

describe('issue 19: Not you? Switch account', () => {
  it('CE-10 signs Ada out and returns to the same authorization request, which Grace then completes', async () => {
    const client = await clientWith({ name: 'Shared Laptop App' });
    const jar = new CookieJar();
    const request = { clientId: client.id, redirectUri: REDIRECT_URI, state: 'same-request-42' };
    const consent = await getConsent(system, jar, request, ada);
    expect(consent.html).toContain(ada.email);
    const form = findForm(consent.html, '/oauth/authorize/switch-account');
    expect(form).toBeDefined();

    const switched = await fetchPage(system, jar, '/oauth/authorize/switch-account', { form: form!.fields });
    expect(switched.status).toBe(303);
    const back = new URL(switched.location!);
    expect(back.pathname).toBe('/oauth/authorize');
    expect(Object.fromEntries(back.searchParams)).toEqual({
      client_id: client.id,
      response_type: 'code',
      redirect_uri: REDIRECT_URI,
      // The scopes the request was verified with: here the client's default (SC-03).
      scope: 'profile email',
      state: 'same-request-42',
    });
    // Nobody is signed in at this browser any more: the home page offers sign-in.
    const home = await fetchPage(system, jar, '/');
    expect(home.html).not.toContain(ada.email);

    const signInPage = await fetchPage(system, jar, switched.location!);
    expect(signInPage.step).toBe('signin');
    let page = await submitSignIn(system, jar, signInPage, grace);
    while (page.step === 'redirect' && page.location?.startsWith(system.authUrl)) {
      page = await fetchPage(system, jar, page.location);
    }
    expect(page.step).toBe('consent');
    expect(page.html).toContain(grace.email);
    expect(page.html).not.toContain(ada.email);
    const answer = await submitDecision(system, jar, page, 'allow');
    const response = parseAuthorizationRedirect(answer.location!);
    expect(response.state).toBe('same-request-42');
    const code = await system.db
      .selectFrom('authorization_codes')
      .select('user_id')
      .where('client_id', '=', client.id)
      .execute();
    expect(code.map((c) => c.user_id)).toEqual([grace.id]);
  });

  it('CE-10 without the request’s CSRF token it is 403 and the user stays signed in', async () => {
    const client = await clientWith({});
    const jar = new CookieJar();
    const consent = await getConsent(system, jar, { clientId: client.id, redirectUri: REDIRECT_URI }, ada);
    const form = findForm(consent.html, '/oauth/authorize/switch-account')!;
    for (const fields of [
      { ...form.fields, csrf_token: 'forged' },
      { request: form.fields.request },
      { ...form.fields, request: 'nope' },
    ]) {
      expectErrorPage(await fetchPage(system, jar, '/oauth/authorize/switch-account', { form: fields }), 403);
    }
    // A cross-site page without the session's cookie gets nothing either.
    expectErrorPage(
      await fetchPage(system, new CookieJar(), '/oauth/authorize/switch-account', { form: form.fields }),
      403,
    );
    const before = await countCodes(system);
    const still = await submitDecision(system, jar, consent, 'allow');
    expect(still.status).toBe(303);
    expect(await countCodes(system)).toBe(before + 1);
  });
});
