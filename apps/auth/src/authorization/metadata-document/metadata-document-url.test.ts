// CM-01, CM-02: which client_id values are document URLs, and which of those may be fetched.
import { describe, expect, it } from 'vitest';
import { MetadataDocumentRefused } from './metadata-document.errors.ts';
import {
  isMetadataDocumentClientId,
  MAX_METADATA_DOCUMENT_URL_LENGTH,
  parseMetadataDocumentUrl,
} from './metadata-document-url.ts';

function refusal(clientId: string, allowLoopback = false): string | undefined {
  try {
    parseMetadataDocumentUrl(clientId, allowLoopback);
    return undefined;
  } catch (err) {
    expect(err).toBeInstanceOf(MetadataDocumentRefused);
    return (err as MetadataDocumentRefused).detail;
  }
}

describe('CM-01 a client_id that is an http(s) URL names a metadata document', () => {
  it.each(['https://app.example/client.json', 'http://127.0.0.1/x', 'HTTPS://app.example/c'])(
    'CM-01 %s: a document URL',
    (id) => expect(isMetadataDocumentClientId(id)).toBe(true),
  );
  it.each(['lkc_0123456789abcdefghijABCD', 'app.example/client.json', 'ftp://app.example/c', 'https:app.example/c'])(
    'CM-01 %s: not a document URL',
    (id) => expect(isMetadataDocumentClientId(id)).toBe(false),
  );

  it(`CM-01 up to ${MAX_METADATA_DOCUMENT_URL_LENGTH} characters`, () => {
    const base = 'https://app.example/';
    expect(refusal(base + 'a'.repeat(MAX_METADATA_DOCUMENT_URL_LENGTH - base.length))).toBeUndefined();
    expect(refusal(base + 'a'.repeat(MAX_METADATA_DOCUMENT_URL_LENGTH - base.length + 1))).toMatch(/longer than/);
  });
});

describe('CM-02 what a document URL must be (draft-ietf-oauth-client-id-metadata-document §3)', () => {
  it.each([
    'https://app.example/client.json',
    'https://app.example/oauth/client-metadata.json',
    'https://app.example:8443/c',
    'https://app.example/c?v=1',
  ])('CM-02 %s: accepted', (id) => expect(refusal(id)).toBeUndefined());

  it.each([
    ['https://app.example/', /must have a path/],
    ['https://app.example', /must have a path/],
    ['http://app.example/client.json', /must use https/],
    ['http://127.0.0.1:8080/client.json', /must use https/],
    ['https://user:pass@app.example/c', /user name or password/],
    ['https://user@app.example/c', /user name or password/],
    ['https://app.example/c#frag', /fragment/],
    ['https://app.example/c#', /fragment/],
    ['https://APP.example/c', /normal form/],
    ['https://app.example:443/c', /normal form/],
    ['https://app.example/a/../c', /normal form/],
    ['https://app.example/./c', /normal form/],
    ['https://app.example/a b', /normal form/],
    ['https://exa mple/c', /not a valid one/],
  ])('CM-02 %s: refused', (id, message) => expect(refusal(id)).toMatch(message));

  it('CM-02 with CIMD_ALLOW_LOOPBACK, http on a loopback host only', () => {
    for (const id of ['http://127.0.0.1:8080/c.json', 'http://localhost:8080/c.json', 'http://[::1]:8080/c.json']) {
      expect(refusal(id, true)).toBeUndefined();
    }
    expect(refusal('http://app.example/c.json', true)).toMatch(/must use https/);
    expect(refusal('http://10.0.0.1/c.json', true)).toMatch(/must use https/);
  });
});
