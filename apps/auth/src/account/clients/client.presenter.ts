import type { CreatedClientJson } from '@latchkey/contracts';
import { presentClient, type CreatedClient } from '@latchkey/core';

/** The account API's client: core's presenter, which the admin CLI shares. */
export { presentClient };

/** The only response that ever carries the client secret (TS-04: shown once). */
export function presentCreatedClient(created: CreatedClient): CreatedClientJson {
  return { client: presentClient(created.client), client_secret: created.clientSecret };
}
