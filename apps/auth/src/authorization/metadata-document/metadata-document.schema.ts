import type { MetadataDocument } from '@latchkey/core';
import { z } from 'zod';
import { MetadataDocumentRefused, RefusalReason } from './metadata-document.errors.ts';

/**
 * The fields of a client ID metadata document (RFC 7591 §2 names) that Latchkey reads; others
 * are ignored. Their content (name, URLs) is checked by core as a registered client's would be.
 * @see https://datatracker.ietf.org/doc/draft-ietf-oauth-client-id-metadata-document/ §4.1
 */
export const metadataDocumentSchema = z.looseObject({
  client_id: z.string(),
  redirect_uris: z.array(z.string()).min(1),
  client_name: z.string().optional(),
  client_uri: z.string().optional(),
  logo_uri: z.string().optional(),
  // CM-05: these clients are public; private_key_jwt and the secret methods are out of scope.
  token_endpoint_auth_method: z.string().optional(),
  // A document is public: a secret in it is no secret (draft §4.1 forbids both).
  client_secret: z.never().optional(),
  client_secret_expires_at: z.never().optional(),
});

const invalid = (detail: string) => new MetadataDocumentRefused(RefusalReason.invalidDocument, detail);

/**
 * CM-04, CM-05: the document as core stores it. `client_id` must equal the URL it was fetched
 * from, character for character (draft §4.1: no normalisation), so a document cannot speak for
 * another URL; `redirect_uris` is required; `token_endpoint_auth_method`, if present, is `none`.
 */
export function parseMetadataDocument(body: unknown, url: string): MetadataDocument {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw invalid("The application's metadata document is not a JSON object.");
  }
  const record = body as Record<string, unknown>;
  if (record.client_id !== url) {
    throw new MetadataDocumentRefused(
      RefusalReason.clientIdMismatch,
      "The client_id in the application's metadata document is not the URL it was fetched from.",
    );
  }
  if (record.token_endpoint_auth_method !== undefined && record.token_endpoint_auth_method !== 'none') {
    throw new MetadataDocumentRefused(
      RefusalReason.authMethod,
      "The application's metadata document asks for a token_endpoint_auth_method other than none, which Latchkey does not support for these applications.",
    );
  }
  const parsed = metadataDocumentSchema.safeParse(body);
  if (!parsed.success) {
    const field = String(parsed.error.issues[0]?.path[0] ?? 'document');
    throw invalid(
      field === 'redirect_uris'
        ? "The application's metadata document must list its redirect_uris."
        : field === 'client_secret' || field === 'client_secret_expires_at'
          ? "The application's metadata document must not contain a client secret."
          : "The application's metadata document has a field of the wrong type.",
    );
  }
  const doc = parsed.data;
  return {
    clientId: doc.client_id,
    clientName: doc.client_name,
    redirectUris: doc.redirect_uris,
    clientUri: doc.client_uri,
    logoUri: doc.logo_uri,
  };
}
