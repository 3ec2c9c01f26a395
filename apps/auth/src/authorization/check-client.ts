import { findActiveClient, redirectUriMatches, type Client } from '@latchkey/core';
import type { Db } from '@latchkey/db';
import type { AuthDeps } from '../deps.ts';
import type { AssembledParams } from './authorize-params.ts';
import { InvalidAuthorizationRequest } from './authorize.errors.ts';
import { isMetadataDocumentClientId } from './metadata-document/metadata-document-url.ts';
import { resolveMetadataDocumentClient, UNKNOWN_CLIENT } from './metadata-document/resolve-metadata-document-client.ts';

/**
 * Client ids are short server-generated strings; longer input is not looked up at all. A
 * metadata document's URL has its own bound (CM-01, MAX_METADATA_DOCUMENT_URL_LENGTH).
 */
const MAX_CLIENT_ID_LENGTH = 128;

/**
 * Step 1: the client must exist and not be revoked before anything else is considered;
 * without it no redirect URI can be trusted (AZ-01, AZ-02, AZ-03, AZ-04, RV-03). A `client_id`
 * that is an http(s) URL names a client ID metadata document (CM-01): read from its store or
 * fetched (metadata-document/), never looked up as a registered client.
 */
export async function checkClient(deps: AuthDeps, { params, duplicates }: AssembledParams): Promise<Client> {
  if (duplicates.has('client_id'))
    throw new InvalidAuthorizationRequest('The client_id parameter was sent more than once.');
  const clientId = params.client_id;
  if (clientId === undefined) throw new InvalidAuthorizationRequest('The request is missing the client_id parameter.');
  if (isMetadataDocumentClientId(clientId)) return resolveMetadataDocumentClient(deps, clientId);
  const client = clientId.length <= MAX_CLIENT_ID_LENGTH ? await findActiveClient(deps.db, clientId) : undefined;
  if (!client) throw new InvalidAuthorizationRequest(UNKNOWN_CLIENT);
  return client;
}

/**
 * A pending request's client when the user comes back to it (sign-in done, or a decision): still
 * active (RV-03), and the redirect URL it was verified with still registered, since the developer
 * may have removed it meanwhile (CE-15), matched as at the start (a loopback port: PC-06).
 * Otherwise a page, and nothing is sent to that URL.
 */
export async function checkPendingClient(db: Db, pending: { clientId: string; redirectUri: string }): Promise<Client> {
  const client = await findActiveClient(db, pending.clientId);
  if (!client) throw new InvalidAuthorizationRequest(UNKNOWN_CLIENT);
  if (!redirectUriMatches(client, pending.redirectUri)) {
    throw new InvalidAuthorizationRequest(
      'The redirect_uri of this request is no longer registered for this application.',
    );
  }
  return client;
}
