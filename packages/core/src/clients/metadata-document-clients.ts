import { formatScope, linkUrlProblem, THIRD_PARTY_SCOPES } from '@latchkey/contracts';
import type { ClientsTable, Executor } from '@latchkey/db';
import type { Clock } from '../clock.ts';
import { Conflict, ValidationFailed } from '../errors.ts';
import { validateName } from '../text.ts';
import { hostOfClientId } from './blocked-hosts.ts';
import { clientRowToClient, type Client } from './client.ts';
import { replaceClientOrigins } from './cors-origins.ts';
import {
  findMetadataDocumentClientRow,
  upsertMetadataDocumentClientRow,
  type MetadataDocumentUpdate,
} from './metadata-document-clients.repository.ts';
import { validateLinkUrl, validateRedirectUris } from './redirect-uri.ts';

/**
 * What Latchkey reads from a client ID metadata document (CM-*), already parsed at the edge
 * (apps/auth metadata-document/): the URL it was fetched from, equal to its `client_id` (CM-04),
 * and the RFC 7591 §2 fields this server uses. Each is validated here as a client registered in
 * the portal would be.
 * @see https://datatracker.ietf.org/doc/draft-ietf-oauth-client-id-metadata-document/
 */
export interface MetadataDocument {
  clientId: string;
  clientName?: string | undefined;
  redirectUris: readonly string[];
  clientUri?: string | undefined;
  logoUri?: string | undefined;
}

/** A stored metadata-document client and until when its document may be used without fetching it again. */
export interface StoredMetadataDocumentClient {
  client: Client;
  /** Milliseconds; at or before now the document is fetched again (CM-10). */
  expiresAt: number;
}

/**
 * CM-06: the name a consent page shows. A document without `client_name` is named after its host,
 * which the consent page shows anyway; either way it is checked as any client's name is (no
 * invisible characters, not the service's own name: HD-04, HD-10), and a bad one refuses the
 * document rather than being repaired.
 */
function documentName(doc: MetadataDocument): string {
  const name = doc.clientName ?? hostOfClientId(doc.clientId) ?? '';
  try {
    return validateName(name, 'client name');
  } catch (err) {
    if (err instanceof ValidationFailed) throw new ValidationFailed('client_name', err.description);
    throw err;
  }
}

function optionalLink(value: string | undefined, field: 'client_uri' | 'logo_uri'): string | null {
  if (value === undefined || value.trim() === '') return null;
  if (field === 'client_uri') return validateLinkUrl(value.trim(), field);
  // Held to the rules of the links a client registers (https or loopback http, no credentials).
  if (linkUrlProblem(value.trim(), 'client_uri') !== undefined) {
    throw new ValidationFailed(
      'logo_uri',
      'The logo_uri must be an absolute https URL without a user name or password.',
    );
  }
  return value.trim();
}

/**
 * Stores the client a fetched document describes, under its URL as id (CM-05): a public client
 * with PKCE required (CM-07), no owner, the third-party scopes (SC-03), the document's redirect
 * URLs (validated as a public client's: CE-02, RU-09, PC-05) and the origins CORS allows for them
 * (PC-07), in one transaction. `expiresAt` is when the document must be fetched again (CM-10).
 *
 * CM-03: inserted on first use, refreshed on a later fetch: one upsert, so instances racing on the same
 * document both succeed and the row ends as one of them wrote it. A revoked row is never revived
 * (a host block or `client revoke` stays in force: CM-13): Conflict, and nothing changes.
 */
export async function saveMetadataDocumentClient(
  db: Executor,
  clock: Clock,
  doc: MetadataDocument,
  expiresAt: number,
): Promise<Client> {
  const name = documentName(doc);
  const redirectUris = validateRedirectUris(doc.redirectUris, 'redirect_uris', true);
  const update: MetadataDocumentUpdate = {
    name,
    redirect_uris: JSON.stringify(redirectUris),
    client_uri: optionalLink(doc.clientUri, 'client_uri'),
    logo_uri: optionalLink(doc.logoUri, 'logo_uri'),
    metadata_expires_at: expiresAt,
  };
  const row: ClientsTable = {
    id: doc.clientId,
    owner_id: null,
    ...update,
    post_logout_redirect_uri: null,
    description: null,
    policy_uri: null,
    tos_uri: null,
    first_party: 0,
    public: 1,
    id_token_signed_response_alg: 'RS256',
    // CM-07, PC-02: a document cannot keep a secret; PKCE is what binds the code to the app.
    require_pkce: 1,
    scope: formatScope(THIRD_PARTY_SCOPES),
    registration: 'metadata_document',
    registration_token_hash: null,
    last_used_at: null,
    created_at: clock.now(),
    revoked_at: null,
  };
  const save = async (trx: Executor): Promise<Client> => {
    await upsertMetadataDocumentClientRow(trx, row, update);
    const stored = await findMetadataDocumentClientRow(trx, doc.clientId);
    if (!stored || stored.revoked_at !== null) {
      throw new Conflict('This application was revoked; its metadata document is no longer accepted.');
    }
    await replaceClientOrigins(trx, doc.clientId, redirectUris);
    return clientRowToClient(stored);
  };
  return db.isTransaction ? save(db) : db.transaction().execute(save);
}

/**
 * The stored client of a document URL, revoked or not, and until when its document is fresh;
 * undefined when none was stored (or the id belongs to a client of another kind).
 */
export async function findMetadataDocumentClient(
  db: Executor,
  clientId: string,
): Promise<StoredMetadataDocumentClient | undefined> {
  const row = await findMetadataDocumentClientRow(db, clientId);
  if (!row) return undefined;
  return { client: clientRowToClient(row), expiresAt: Number(row.metadata_expires_at ?? 0) };
}
