import type { CreatedClientJson } from '@latchkey/contracts';
import { presentClient, type CreatedClient } from '@latchkey/core';

/** The account API's client: core's presenter, which the admin CLI shares. */
export { presentClient };

/** The only response that ever carries the client secret (TS-04: shown once); a public client has none. */
export function presentCreatedClient(created: CreatedClient): CreatedClientJson {
  const client = presentClient(created.client);
  return created.clientSecret === undefined ? { client } : { client, client_secret: created.clientSecret };
}
