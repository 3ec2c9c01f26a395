import { hostOfClientId, type Client } from '@latchkey/core';

/**
 * How a client that no person registered came to be, as the consent page tells it (issue 32):
 * - `metadata_document` (CM-15): its id is the https URL of its client ID metadata document.
 *   Whoever controls `host` wrote the document, and that is the one fact Latchkey can vouch
 *   for; `client_name` is whatever the document says. `host` is ASCII as the URL parser
 *   serialises it (an internationalized domain in its xn-- form), so a homograph of a known
 *   name is shown as what it is.
 * - `dynamic` (DR-18): it registered itself at /oauth/register; it has no owner, and nobody
 *   has verified anything about it.
 */
export type SelfRegistration = { kind: 'metadata_document'; host: string } | { kind: 'dynamic' };

/** Undefined for a client a person registered (or the service provisioned): the page is as it was. */
export function selfRegistrationOf(client: Pick<Client, 'id' | 'registration'>): SelfRegistration | undefined {
  switch (client.registration) {
    case 'metadata_document':
      // The id is an https URL (check-client accepted it as one); the id itself if it ever is not.
      return { kind: 'metadata_document', host: hostOfClientId(client.id) ?? client.id };
    case 'dynamic':
      return { kind: 'dynamic' };
    default:
      return undefined;
  }
}

/**
 * CM-15: what a page other than consent (sign-in, sign-out) should call the client when it
 * cannot say more: for a metadata document, the app from its host, never its claimed name alone.
 */
export function clientLabelOf(client: Pick<Client, 'id' | 'name' | 'registration'>): string {
  const self = selfRegistrationOf(client);
  return self?.kind === 'metadata_document' ? `an app from ${self.host}` : client.name;
}
