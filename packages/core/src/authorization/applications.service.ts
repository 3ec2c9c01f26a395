import { sortScopes, storedScopes, type AuthorizedApplication } from '@latchkey/contracts';
import type { ClientRegistration, Db } from '@latchkey/db';
import { hostOfClientId } from '../clients/blocked-hosts.ts';
import type { Clock } from '../clock.ts';
import { NotFound } from '../errors.ts';
import { OPERATOR, recordActorEvent, type AuditActor } from '../audit/security-events.ts';
import {
  lastUseByGrant,
  listConsentsToApplications,
  listOpenGrantsOfApplications,
  liveGrantIds,
  revokeEverythingOfClientForUser,
} from './applications.repository.ts';

/** What the list says of the client beside its name: its owner, or how it registered itself. */
interface ApplicationClientRow {
  client_id: string;
  client_name: string;
  owner_name: string | null;
  client_registration: ClientRegistration;
}

/**
 * The applications that can act for the user, one entry per client (AA-01): third-party
 * clients that are not revoked and that the user approved (a consent) or that still hold a
 * working token. The portal's own client is never one of them. CM-16: a metadata-document
 * client carries the host of its document, which is what people know it by; a dynamic one
 * says it registered itself (`registration`).
 */
export async function listAuthorizedApplications(
  db: Db,
  clock: Clock,
  userId: string,
  clientId?: string,
): Promise<AuthorizedApplication[]> {
  const [grants, consents] = await Promise.all([
    listOpenGrantsOfApplications(db, userId, clientId),
    listConsentsToApplications(db, userId, clientId),
  ]);
  const grantIds = grants.map((g) => g.grant_id);
  const [live, lastUse] = await Promise.all([liveGrantIds(db, grantIds, clock.now()), lastUseByGrant(db, grantIds)]);

  const apps = new Map<string, AuthorizedApplication>();
  const entry = (row: ApplicationClientRow, at: number) => {
    let app = apps.get(row.client_id);
    if (app === undefined) {
      const registration = row.client_registration;
      app = {
        clientId: row.client_id,
        name: row.client_name,
        ownerName: row.owner_name,
        firstAuthorizedAt: at,
        lastUsedAt: null,
        lastUsedIp: null,
        lastUsedUserAgent: null,
        activeGrants: 0,
        scopes: [],
        registration,
        host: registration === 'metadata_document' ? (hostOfClientId(row.client_id) ?? null) : null,
      };
      apps.set(row.client_id, app);
    }
    app.firstAuthorizedAt = Math.min(app.firstAuthorizedAt, at);
    return app;
  };
  for (const consent of consents) entry(consent, Number(consent.created_at));
  for (const grant of grants) {
    if (!live.has(grant.grant_id)) continue;
    const app = entry(grant, Number(grant.grant_created_at));
    app.activeGrants += 1;
    // SC-09: the application shows what it can still do for the user: its live grants' scopes.
    app.scopes = sortScopes([...app.scopes, ...storedScopes(grant.grant_scope)]);
    const used = lastUse.get(grant.grant_id);
    if (used !== undefined && (app.lastUsedAt === null || used.at > app.lastUsedAt)) {
      app.lastUsedAt = used.at;
      app.lastUsedIp = used.ip;
      app.lastUsedUserAgent = used.userAgent;
    }
  }
  return [...apps.values()].sort((a, b) => a.name.localeCompare(b.name) || a.clientId.localeCompare(b.clientId));
}

/**
 * Revoke access (AA-02 to AA-05): every grant, access token, refresh token and pending code of
 * this client for this user, and the consent, in one transaction. Its tokens are refused from the
 * next request on; the next authorization shows the consent page again. Other users of the
 * same client keep theirs. A client the user has not authorized (unknown, another user's, the
 * portal's own, or already revoked) is NotFound and nothing changes (AA-06). AU-13:
 * `application.revoked` goes in the user's log in the same transaction (AU-02), by `actor`: the
 * account API passes the signed-in user; without one (the CLI's `grant revoke`), an operator.
 */
export async function revokeApplicationAccess(
  db: Db,
  clock: Clock,
  userId: string,
  clientId: string,
  actor?: AuditActor,
): Promise<AuthorizedApplication> {
  const [app] = await listAuthorizedApplications(db, clock, userId, clientId);
  if (app === undefined) throw new NotFound('No such authorized application.');
  const now = clock.now();
  await db.transaction().execute(async (trx) => {
    await revokeEverythingOfClientForUser(trx, userId, clientId, now);
    await recordActorEvent(trx, actor ?? OPERATOR, {
      userId,
      type: 'application.revoked',
      target: { type: 'client', id: clientId },
      at: now,
    });
  });
  return { ...app, activeGrants: 0, scopes: [] };
}
