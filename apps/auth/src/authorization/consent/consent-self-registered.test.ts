// Issue 32: the consent page of an application nobody registered. A client ID metadata document
// is introduced by the host its document is on, which is what people can judge; the name it
// gives itself is only what it "calls itself" (CM-15). One that registered itself at
// /oauth/register says so (DR-18). Neither is ever "by Latchkey", and each carries a notice
// that nobody verified it. The clients are rows, as check-client finds them stored and fresh.
import { describe, expect, it } from 'vitest';
import { createResourceServer, hasConsented, recordConsent, type Client } from '@latchkey/core';
import {
  CookieJar,
  decodeHtmlEntities,
  getConsent,
  openAuthorize,
  parseAuthorizationRedirect,
  submitDecision,
  type PageResult,
} from '#test/support/browserless-flow.ts';
import { makeClient, pkcePair, useUsers } from '#test/support/fixtures.ts';
import { useSystem } from '#test/support/system.ts';
import { countCodes, REDIRECT_URI } from '../authorize.fixture.ts';
import { insertSelfRegisteredClient } from './self-registered.fixture.ts';
import { selfRegistrationOf } from './self-registration.ts';

const system = useSystem();
const { ada, owner } = useUsers(system, { ada: 'Ada Lovelace', owner: 'Olivia Owner' });

let documents = 0;

/** A metadata-document client on `host` (a fresh document path each time), stored and fresh. */
function documentClient(host: string, name = 'Helpful Agent'): Promise<Client> {
  documents += 1;
  return insertSelfRegisteredClient(system.db, system.clock, {
    registration: 'metadata_document',
    id: `https://${host}/clients/${documents}.json`,
    name,
    redirectUris: [`https://${host}/callback`],
  });
}

function consentOf(client: Client, extra: Array<[string, string]> = []): Promise<PageResult> {
  return getConsent(
    system,
    new CookieJar(),
    {
      clientId: client.id,
      redirectUri: client.redirectUris[0]!,
      state: 'st',
      codeChallenge: pkcePair().challenge,
      extra,
    },
    ada,
  );
}

/** The text a reader sees in the element, tags dropped and white space collapsed. */
function textOf(html: string, pattern: RegExp): string {
  const inner = pattern.exec(html)?.[1];
  if (inner === undefined) throw new Error(`no ${pattern} on the page`);
  return decodeHtmlEntities(inner.replace(/<[^>]*>/g, ''))
    .replace(/\s+/g, ' ')
    .trim();
}

const headline = (html: string) => textOf(html, /<h1 id="page-title">([\s\S]*?)<\/h1>/);
const title = (html: string) => textOf(html, /<title>([\s\S]*?)<\/title>/);
const notes = (html: string) => [...html.matchAll(/<p class="[^"]*unverified-note[^"]*" role="note">([\s\S]*?)<\/p>/g)];

describe('CM-15 the consent page of a client ID metadata document', () => {
  it('CM-15 names the document’s host in the headline, the client’s name only as what it calls itself, and says Latchkey has not verified it', async () => {
    const client = await documentClient('app.example');
    const page = await consentOf(client);
    expect(page.status).toBe(200);
    expect(headline(page.html)).toBe('An app from app.example wants to access your Latchkey account');
    expect(title(page.html)).toContain('Authorize an app from app.example');
    expect(page.html).toContain('<strong class="app-host">app.example</strong>');
    expect(page.html).toContain('<p class="app-owner">It calls itself “Helpful Agent”</p>');
    const [note, ...more] = notes(page.html);
    expect(more).toEqual([]);
    const said = textOf(note![0], /([\s\S]*)/);
    expect(said).toContain('Latchkey has not verified this application.');
    expect(said).toContain('“Helpful Agent” is only what it says about itself');
    expect(said).toContain('it comes from app.example: allow it only if you trust app.example.');
    // Nothing presents the name as the one asking, or the service as its owner.
    expect(page.html).not.toContain('Authorize Helpful Agent');
    expect(page.html).not.toContain('<strong>Helpful Agent</strong>');
    expect(page.html).not.toMatch(/by Latchkey|by Olivia/);
    // Where the answer goes is still said, and the scopes are listed as for any app.
    expect(page.html).toContain('<strong>app.example</strong>.');
    expect(page.html).toContain('It will be able to');
  });

  it('CM-15 a name that claims to be someone else, or carries markup, is shown as text in the secondary line only', async () => {
    const impostor = await documentClient('evil.example', 'Latchkey Official <img src=x onerror=alert(1)>');
    const page = await consentOf(impostor);
    expect(headline(page.html)).toBe('An app from evil.example wants to access your Latchkey account');
    expect(page.html).not.toMatch(/<img/);
    expect(page.html).toContain('It calls itself “Latchkey Official &lt;img src=x onerror=alert(1)&gt;”');
    expect(headline(page.html)).not.toContain('Latchkey Official');
    expect(title(page.html)).not.toContain('Latchkey Official');

    // A name that is another host's name does not replace the host.
    const lookalike = await documentClient('attacker.example', 'claude.ai');
    const other = await consentOf(lookalike);
    expect(headline(other.html)).toBe('An app from attacker.example wants to access your Latchkey account');
    expect(notes(other.html)[0]![0]).toContain('<strong>attacker.example</strong>');
  });

  it('CM-15 an internationalized host is shown as the URL parser writes it, punycode, so a homograph shows as what it is', async () => {
    // аpple.example with a Cyrillic а.
    const homograph = await documentClient('xn--pple-43d.example', 'Apple');
    const page = await consentOf(homograph);
    expect(headline(page.html)).toBe('An app from xn--pple-43d.example wants to access your Latchkey account');
    expect(page.html).not.toContain('аpple');
    // However the id was written, the page gets the ASCII form.
    expect(selfRegistrationOf({ id: 'https://аpple.example/c.json', registration: 'metadata_document' })).toEqual({
      kind: 'metadata_document',
      host: 'xn--pple-43d.example',
    });
    expect(selfRegistrationOf({ id: 'https://App.Example.:8443/c.json', registration: 'metadata_document' })).toEqual({
      kind: 'metadata_document',
      host: 'app.example',
    });
  });

  it('CM-15 for another resource server, the sentence names the host, not the name', async () => {
    const server = await createResourceServer(system.db, system.clock, system.apiUrl, {
      uri: 'https://reports.example/api',
      name: 'Reports',
    });
    const client = await documentClient('agent.example');
    const page = await consentOf(client, [['resource', server.uri]]);
    expect(textOf(page.html, /<p class="resource-server">([\s\S]*?)<\/p>/)).toBe(
      'The app from agent.example wants to access your Latchkey account for Reports (reports.example).',
    );
  });

  it('CM-15 after an earlier approval, the note about new scopes names the host too', async () => {
    const client = await documentClient('growing.example');
    await recordConsent(system.db, system.clock, ada.id, client.id, ['profile']);
    const page = await consentOf(client, [['scope', 'profile email']]);
    expect(textOf(page.html, /<p class="scope-note">([\s\S]*?)<\/p>/)).toBe(
      'You allowed the app from growing.example before; it now asks for more, marked New.',
    );
  });

  it('CM-15 Allow works as for any app: a code to the document’s redirect URL, and the consent is remembered', async () => {
    const client = await documentClient('allowed.example');
    const jar = new CookieJar();
    const { challenge } = pkcePair();
    const request = {
      clientId: client.id,
      redirectUri: client.redirectUris[0]!,
      state: 's1',
      codeChallenge: challenge,
    };
    const page = await getConsent(system, jar, request, ada);
    const before = await countCodes(system);
    const answer = await submitDecision(system, jar, page, 'allow');
    expect(answer.status).toBe(303);
    const response = parseAuthorizationRedirect(answer.location!);
    expect(answer.location!.startsWith('https://allowed.example/callback?')).toBe(true);
    expect(response).toMatchObject({ state: 's1', code: expect.any(String) });
    expect(await countCodes(system)).toBe(before + 1);
    expect(await hasConsented(system.db, ada.id, client.id)).toBe(true);
  });
});

describe('CM-15 before consent, the sign-in page', () => {
  it('CM-15 a signed-out user is asked to sign in to continue to "an app from <host>", never to the name the document claims', async () => {
    const client = await documentClient('agent.example', 'Latchkey Portal Helper');
    const page = await openAuthorize(system, new CookieJar(), {
      clientId: client.id,
      redirectUri: client.redirectUris[0]!,
      state: 'st',
      codeChallenge: pkcePair().challenge,
    });
    expect(page.status).toBe(200);
    const text = decodeHtmlEntities(page.html.replace(/<[^>]*>/g, ' ')).replace(/\s+/g, ' ');
    expect(text).toContain('to continue to an app from agent.example');
    expect(text).not.toContain('Portal Helper');
  });
});

describe('DR-18 the consent page of a client that registered itself', () => {
  it('DR-18 says the application registered itself and nobody has verified it; no owner is named', async () => {
    const client = await insertSelfRegisteredClient(system.db, system.clock, {
      registration: 'dynamic',
      name: 'Night Owl <b>Agent</b>',
      redirectUris: ['https://owl.example/cb'],
    });
    const page = await consentOf(client);
    expect(page.status).toBe(200);
    expect(headline(page.html)).toBe('Authorize Night Owl <b>Agent</b>');
    expect(page.html).not.toContain('<b>Agent</b>');
    expect(page.html).toContain('<p class="app-owner">Registered itself, without an owner</p>');
    const [note, ...more] = notes(page.html);
    expect(more).toEqual([]);
    const said = textOf(note![0], /([\s\S]*)/);
    expect(said).toContain('This application registered itself, and nobody has verified it.');
    expect(said).toContain('“Night Owl <b>Agent</b>” is the name it chose');
    expect(page.html).not.toMatch(/by Latchkey|class="app-host"/);
  });
});

describe('CM-15 DR-18 a registered client’s page is as before', () => {
  it('CM-15 DR-18 an owned client is by its owner, with no notice', async () => {
    const { client } = await makeClient(system, owner, { redirectUri: REDIRECT_URI, name: 'Known App' });
    expect(selfRegistrationOf(client)).toBeUndefined();
    const page = await getConsent(system, new CookieJar(), { clientId: client.id, redirectUri: REDIRECT_URI }, ada);
    expect(headline(page.html)).toBe('Authorize Known App');
    expect(page.html).toContain('by Olivia Owner');
    expect(page.html).toContain('<p><strong>Known App</strong> wants to access your Latchkey account.</p>');
    expect(notes(page.html)).toEqual([]);
    expect(page.html).not.toContain('calls itself');
  });
});
