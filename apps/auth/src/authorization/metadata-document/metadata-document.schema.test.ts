// CM-04, CM-05: what a fetched document must say.
import { describe, expect, it } from 'vitest';
import { MetadataDocumentRefused, RefusalReason } from './metadata-document.errors.ts';
import { parseMetadataDocument } from './metadata-document.schema.ts';

const URL_ = 'https://app.example/client.json';
const GOOD = { client_id: URL_, client_name: 'Example App', redirect_uris: ['http://127.0.0.1/callback'] };

function reasonOf(body: unknown): RefusalReason | undefined {
  try {
    parseMetadataDocument(body, URL_);
    return undefined;
  } catch (err) {
    expect(err).toBeInstanceOf(MetadataDocumentRefused);
    return (err as MetadataDocumentRefused).reason;
  }
}

describe('CM-04 the document’s client_id must be the URL it was fetched from, exactly', () => {
  it('CM-04 equal: parsed, with the fields core stores', () => {
    expect(
      parseMetadataDocument(
        { ...GOOD, client_uri: 'https://app.example', logo_uri: 'https://app.example/logo.png', extra: 1 },
        URL_,
      ),
    ).toEqual({
      clientId: URL_,
      clientName: 'Example App',
      redirectUris: ['http://127.0.0.1/callback'],
      clientUri: 'https://app.example',
      logoUri: 'https://app.example/logo.png',
    });
  });

  it.each([
    'https://app.example/other.json',
    'https://app.example/client.json/',
    'https://APP.example/client.json',
    'https://app.example/client.json?',
    'https://evil.example/client.json',
  ])('CM-04 client_id %s: refused', (clientId) => {
    expect(reasonOf({ ...GOOD, client_id: clientId })).toBe(RefusalReason.clientIdMismatch);
  });

  it('CM-04 missing client_id, or not an object: refused', () => {
    const { client_id: _omitted, ...rest } = GOOD;
    expect(reasonOf(rest)).toBe(RefusalReason.clientIdMismatch);
    expect(reasonOf([GOOD])).toBe(RefusalReason.invalidDocument);
    expect(reasonOf('text')).toBe(RefusalReason.invalidDocument);
    expect(reasonOf(null)).toBe(RefusalReason.invalidDocument);
  });
});

describe('CM-05 a public client: redirect_uris required, token_endpoint_auth_method none or absent, no secret', () => {
  it('CM-05 none is accepted, as is leaving it out', () => {
    expect(reasonOf({ ...GOOD, token_endpoint_auth_method: 'none' })).toBeUndefined();
    expect(reasonOf(GOOD)).toBeUndefined();
  });

  it.each(['private_key_jwt', 'client_secret_basic', 'client_secret_post', 'tls_client_auth', 'None', ''])(
    'CM-05 token_endpoint_auth_method %j: refused',
    (method) => expect(reasonOf({ ...GOOD, token_endpoint_auth_method: method })).toBe(RefusalReason.authMethod),
  );

  it('CM-05 no redirect_uris, an empty list or a list of non-strings: refused', () => {
    const { redirect_uris: _omitted, ...rest } = GOOD;
    expect(reasonOf(rest)).toBe(RefusalReason.invalidDocument);
    expect(reasonOf({ ...GOOD, redirect_uris: [] })).toBe(RefusalReason.invalidDocument);
    expect(reasonOf({ ...GOOD, redirect_uris: [42] })).toBe(RefusalReason.invalidDocument);
    expect(reasonOf({ ...GOOD, redirect_uris: 'http://127.0.0.1/callback' })).toBe(RefusalReason.invalidDocument);
  });

  it('CM-05 a client_secret in a public document: refused', () => {
    expect(reasonOf({ ...GOOD, client_secret: 's3cret' })).toBe(RefusalReason.invalidDocument);
    expect(reasonOf({ ...GOOD, client_secret_expires_at: 0 })).toBe(RefusalReason.invalidDocument);
  });

  it('CM-05 a field of the wrong type: refused', () => {
    expect(reasonOf({ ...GOOD, client_name: 7 })).toBe(RefusalReason.invalidDocument);
  });
});
