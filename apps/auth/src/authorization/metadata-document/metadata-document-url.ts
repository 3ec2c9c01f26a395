import { MetadataDocumentRefused, RefusalReason } from './metadata-document.errors.ts';

/**
 * CM-01: document URLs are longer than generated ids (lkc_ + 24) but still bounded: longer
 * input is not parsed, fetched or looked up.
 */
export const MAX_METADATA_DOCUMENT_URL_LENGTH = 1024;

/**
 * Whether a `client_id` is meant as a client ID metadata document: it names a URL scheme. A
 * generated id never does, so such an id is never looked up as a registered client.
 */
export function isMetadataDocumentClientId(clientId: string): boolean {
  return /^https?:\/\//i.test(clientId);
}

/** The hosts that name this machine: http documents are read from them only with CIMD_ALLOW_LOOPBACK. */
function isLoopbackHostname(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(?:\.\d{1,3}){3}$/.test(hostname);
}

function invalid(detail: string): MetadataDocumentRefused {
  return new MetadataDocumentRefused(RefusalReason.invalidUrl, detail);
}

/**
 * CM-01, CM-02 (draft-ietf-oauth-client-id-metadata-document §3): an `https` URL with a path
 * other than `/`, no user name or password, no fragment, and written as the URL parser writes it
 * (no dot segments, lower-case scheme and host, no default port), so the string compared with the
 * document's `client_id` (CM-04) is the one fetched. With `allowLoopback` (CIMD_ALLOW_LOOPBACK,
 * development and tests only) an `http` URL on a loopback host is accepted too.
 */
export function parseMetadataDocumentUrl(clientId: string, allowLoopback: boolean): URL {
  if (clientId.length > MAX_METADATA_DOCUMENT_URL_LENGTH) {
    throw invalid(`The client_id URL is longer than ${MAX_METADATA_DOCUMENT_URL_LENGTH} characters.`);
  }
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    throw invalid('The client_id looks like a URL but is not a valid one.');
  }
  const http = url.protocol === 'http:' && allowLoopback && isLoopbackHostname(url.hostname);
  if (url.protocol !== 'https:' && !http) {
    throw invalid('A client_id URL must use https.');
  }
  if (url.username !== '' || url.password !== '' || /^[^/]*\/\/[^/?#]*@/.test(clientId)) {
    throw invalid('A client_id URL must not contain a user name or password.');
  }
  if (clientId.includes('#')) throw invalid('A client_id URL must not contain a fragment (#).');
  if (url.pathname === '/' || url.pathname === '') {
    throw invalid('A client_id URL must have a path: the address of the metadata document, not a site.');
  }
  if (url.href !== clientId) {
    throw invalid(
      'A client_id URL must be written in its normal form (lower-case host, no default port, no . or .. segments, no characters that need escaping).',
    );
  }
  return url;
}
