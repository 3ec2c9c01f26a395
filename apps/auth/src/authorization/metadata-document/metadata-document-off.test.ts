// CM-11, CM-14: CLIENT_ID_METADATA_DOCUMENTS=off. A URL client_id is then an unknown client, as
// any id nobody registered: no request is made to it, and the metadata does not offer it.
import { describe, expect, it } from 'vitest';
import { CookieJar, openAuthorize } from '#test/support/browserless-flow.ts';
import { pkcePair } from '#test/support/fixtures.ts';
import { useSystem } from '#test/support/system.ts';
import {
  documentClientRow,
  documentFor,
  expectDocumentRefused,
  useDocumentServer,
} from './metadata-document.fixture.ts';

const system = useSystem({ CLIENT_ID_METADATA_DOCUMENTS: 'off', CIMD_ALLOW_LOOPBACK: 'true' });
const docs = useDocumentServer();

describe('CM-14 documents turned off', () => {
  it('CM-14 a valid document URL is an unknown client: the 400 page, nothing fetched, nothing stored', async () => {
    const clientId = docs.url('/off/client.json');
    docs.serveJson('/off/client.json', documentFor(clientId));
    const page = await openAuthorize(system, new CookieJar(), {
      clientId,
      redirectUri: 'http://127.0.0.1:53127/callback',
      codeChallenge: pkcePair().challenge,
      state: 'off',
    });
    expectDocumentRefused(
      system,
      page,
      /application \(client_id\) is unknown or no longer active/,
      'disabled',
      '127.0.0.1',
    );
    expect(docs.connections()).toBe(0);
    expect(await documentClientRow(system, clientId)).toBeUndefined();
  });

  it('CM-11 the metadata does not list client_id_metadata_document_supported', async () => {
    const response = await fetch(`${system.authUrl}/.well-known/oauth-authorization-server`);
    const metadata = (await response.json()) as Record<string, unknown>;
    expect(metadata).not.toHaveProperty('client_id_metadata_document_supported');
    expect(metadata.issuer).toBe(system.authUrl);
  });
});
