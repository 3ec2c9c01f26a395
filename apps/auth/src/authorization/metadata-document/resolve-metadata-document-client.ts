import {
  Conflict,
  findMetadataDocumentClient,
  hostOfClientId,
  isClientHostBlocked,
  saveMetadataDocumentClient,
  ValidationFailed,
  type Client,
} from '@latchkey/core';
import type { AuthDeps } from '../../deps.ts';
import { InvalidAuthorizationRequest } from '../authorize.errors.ts';
import { cacheLifetimeSeconds } from './cache-lifetime.ts';
import { fetchMetadataDocument } from './fetch-metadata-document.ts';
import { MetadataDocumentRefused, RefusalReason } from './metadata-document.errors.ts';
import { parseMetadataDocument } from './metadata-document.schema.ts';
import { parseMetadataDocumentUrl } from './metadata-document-url.ts';

/** What the page says for an unknown client: with documents off, a URL is just an unknown id (CM-14). */
export const UNKNOWN_CLIENT = 'The application (client_id) is unknown or no longer active.';

/**
 * The client a `client_id` URL names (CM-01..CM-14), in this order:
 *
 * 1. Documents off (CLIENT_ID_METADATA_DOCUMENTS=off): an unknown client (CM-14).
 * 2. The URL is one a document may have (CM-01, CM-02), and its host is not blocked (CM-13).
 * 3. A stored client for it: revoked, refused (never revived); its document still fresh by
 *    the clock, used as stored without a request (CM-10).
 * 4. Otherwise (CM-03: on first use) the document is fetched through the address guard (CM-08, CM-09), parsed
 *    (CM-04, CM-05), and the client stored with the document's cache lifetime (CM-06, CM-07).
 *
 * Every refusal is the authorization endpoint's error page, never a redirect: nothing about the
 * client is trusted yet, its redirect URLs least of all (CM-12). The reason is logged at info,
 * with the host (a document URL is no secret); a network or TLS failure is a refusal, not a 500.
 */
export async function resolveMetadataDocumentClient(deps: AuthDeps, clientId: string): Promise<Client> {
  const { enabled, allowLoopback } = deps.config.clientIdMetadataDocuments;
  const host = hostOfClientId(clientId);
  try {
    if (!enabled) throw new MetadataDocumentRefused(RefusalReason.disabled, UNKNOWN_CLIENT);
    const url = parseMetadataDocumentUrl(clientId, allowLoopback);
    if (await isClientHostBlocked(deps.db, url.hostname)) {
      throw new MetadataDocumentRefused(
        RefusalReason.blockedHost,
        'Applications from this host are blocked on this Latchkey server.',
      );
    }
    const stored = await findMetadataDocumentClient(deps.db, clientId);
    if (stored?.client.revokedAt != null) {
      throw new MetadataDocumentRefused(RefusalReason.revoked, UNKNOWN_CLIENT);
    }
    if (stored && stored.expiresAt > deps.clock.now()) return stored.client;
    const fetched = await fetchMetadataDocument(url, { allowLoopback, ca: deps.metadataDocumentCa });
    const doc = parseMetadataDocument(fetched.body, clientId);
    const now = deps.clock.now();
    const expiresAt = now + cacheLifetimeSeconds(fetched.headers, now) * 1000;
    return await saveOrRefuse(deps, doc, expiresAt);
  } catch (err) {
    if (!(err instanceof MetadataDocumentRefused)) throw err;
    deps.logger.info(
      { clientHost: host, reason: err.reason, cause: err.cause instanceof Error ? err.cause.message : undefined },
      'client metadata document refused',
    );
    throw new InvalidAuthorizationRequest(err.detail);
  }
}

/** Core's refusals of the document's content, as refusals of the document. */
async function saveOrRefuse(
  deps: AuthDeps,
  doc: Parameters<typeof saveMetadataDocumentClient>[2],
  expiresAt: number,
): Promise<Client> {
  try {
    return await saveMetadataDocumentClient(deps.db, deps.clock, doc, expiresAt);
  } catch (err) {
    if (err instanceof ValidationFailed) {
      throw new MetadataDocumentRefused(
        RefusalReason.invalidDocument,
        `The application's metadata document has an invalid ${err.field}: ${err.description}`,
        { cause: err },
      );
    }
    if (err instanceof Conflict)
      throw new MetadataDocumentRefused(RefusalReason.revoked, UNKNOWN_CLIENT, { cause: err });
    throw err;
  }
}
