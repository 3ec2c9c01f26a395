// Clients that registered themselves (issue 32), inserted as rows: the consent page, the
// authorized applications and the CLI's host block are tested without fetching a document or
// calling /oauth/register.
import { findClient, type Client, type Clock } from '@latchkey/core';
import type { ClientRegistration, Executor } from '@latchkey/db';

export const METADATA_DOCUMENT_ID = 'https://app.example/client.json';

/** A day: the stored document stays fresh, so authorization uses the row and fetches nothing. */
const FRESH_FOR_MS = 86_400_000;

let counter = 0;

/**
 * A public, PKCE-requiring client without an owner, as a client ID metadata document
 * (`registration: 'metadata_document'`, its id the document's URL) or a dynamic registration
 * (`dynamic`, an `lkc_` id) would store it.
 */
export async function insertSelfRegisteredClient(
  db: Executor,
  clock: Clock,
  options: {
    registration: Exclude<ClientRegistration, 'registered'>;
    id?: string;
    name?: string;
    redirectUris?: string[];
  },
): Promise<Client> {
  counter += 1;
  const id =
    options.id ??
    (options.registration === 'dynamic' ? `lkc_dynamic${String(counter).padStart(13, '0')}` : METADATA_DOCUMENT_ID);
  const now = clock.now();
  await db
    .insertInto('clients')
    .values({
      id,
      owner_id: null,
      name: options.name ?? 'Helpful Agent',
      redirect_uris: JSON.stringify(options.redirectUris ?? ['https://app.example/callback']),
      post_logout_redirect_uri: null,
      description: null,
      client_uri: null,
      policy_uri: null,
      tos_uri: null,
      first_party: 0,
      id_token_signed_response_alg: 'RS256',
      public: 1,
      require_pkce: 1,
      scope: 'profile email',
      registration: options.registration,
      metadata_expires_at: options.registration === 'metadata_document' ? now + FRESH_FOR_MS : null,
      logo_uri: null,
      registration_token_hash: null,
      last_used_at: null,
      created_at: now,
      revoked_at: null,
    })
    .execute();
  return (await findClient(db, id))!;
}
