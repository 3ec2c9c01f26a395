import type { Config } from '@latchkey/config';
import type { Db } from '@latchkey/db';
import type { Clock } from '../clock.ts';
import { ensureFirstPartyClient } from '../clients/clients.service.ts';

export const PORTAL_CLIENT_NAME = 'Latchkey developer portal';

/** Provisions the portal's own first-party, PKCE-required client from configuration (DD-8, PK-08). */
export async function provisionPortalClient(db: Db, clock: Clock, config: Config): Promise<void> {
  await ensureFirstPartyClient(db, clock, {
    id: config.portal.clientId,
    secret: config.portal.clientSecret,
    name: PORTAL_CLIENT_NAME,
    redirectUri: config.portal.redirectUri,
    postLogoutRedirectUri: config.portal.postLogoutRedirectUri,
  });
}
