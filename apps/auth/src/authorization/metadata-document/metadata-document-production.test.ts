// CM-02, CM-08 with the production setting (CIMD_ALLOW_LOOPBACK off, its default; production
// refuses to start with it on): documents on loopback or private addresses are refused before
// any connection is made, whether the URL names the address or a name resolves to it.
import { describe, expect, it } from 'vitest';
import { CookieJar, openAuthorize } from '#test/support/browserless-flow.ts';
import { pkcePair } from '#test/support/fixtures.ts';
import { useSystem } from '#test/support/system.ts';
import { makeSelfSignedCertificate } from '#test/support/tls.ts';
import { countCodes } from '../authorize.fixture.ts';
import { documentFor, expectDocumentRefused, useDocumentServer } from './metadata-document.fixture.ts';

// Served over https with a certificate the server trusts, so only the address guard stands in the way.
const tls = makeSelfSignedCertificate();
const system = useSystem({}, { metadataDocumentCa: tls.cert });
const docs = useDocumentServer(() => tls);

async function open(clientId: string) {
  return openAuthorize(system, new CookieJar(), {
    clientId,
    redirectUri: 'http://127.0.0.1:53127/callback',
    codeChallenge: pkcePair().challenge,
  });
}

describe('CM-08 production setting: only public addresses', () => {
  it('CM-08 the system runs with loopback documents off', () => {
    expect(system.config.clientIdMetadataDocuments).toEqual({ enabled: true, allowLoopback: false, perMinute: 30 });
  });

  it('CM-02 http on loopback: refused as not https, nothing fetched', async () => {
    const clientId = `http://127.0.0.1:${docs.port}/prod/http.json`;
    expectDocumentRefused(system, await open(clientId), /must use https/, 'invalid_url', '127.0.0.1');
    expect(docs.connections()).toBe(0);
  });

  it.each([
    ['https://127.0.0.1', (port: number) => `https://127.0.0.1:${port}/prod/doc.json`, '127.0.0.1'],
    [
      'https://localhost (a name that resolves to loopback)',
      (port: number) => `https://localhost:${port}/prod/doc.json`,
      'localhost',
    ],
    [
      'https://[::ffff:127.0.0.1]',
      (port: number) => `https://[::ffff:7f00:1]:${port}/prod/doc.json`,
      '[::ffff:7f00:1]',
    ],
  ])('CM-08 %s: refused before any connection', async (_name, makeUrl, host) => {
    const clientId = makeUrl(docs.port);
    docs.serveJson('/prod/doc.json', documentFor(clientId));
    const before = await countCodes(system);
    expectDocumentRefused(system, await open(clientId), /not on a public internet address/, 'forbidden_address', host);
    expect(docs.connections()).toBe(0);
    expect(await countCodes(system)).toBe(before);
  });

  it.each([
    'https://10.0.0.1/client.json',
    'https://192.168.1.10/client.json',
    'https://172.16.0.1/client.json',
    'https://100.64.0.1/client.json',
    'https://169.254.169.254/latest/meta-data/client.json',
    'https://[::ffff:a9fe:a9fe]/latest/meta-data/client.json',
    'https://[fd00::1]/client.json',
    'https://[fe80::1]/client.json',
    'https://[::1]/client.json',
    'https://0.0.0.0/client.json',
    'https://224.0.0.1/client.json',
  ])('CM-08 %s: refused at once, without trying to connect', async (clientId) => {
    const started = Date.now();
    const page = await open(clientId);
    // No connection attempt: an unroutable address would hang until the 5 s timeout.
    expect(Date.now() - started).toBeLessThan(1000);
    expectDocumentRefused(
      system,
      page,
      /not on a public internet address/,
      'forbidden_address',
      new URL(clientId).hostname,
    );
  });
});
