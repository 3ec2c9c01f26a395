import { formatScope, storedScopes, type Scope } from '@latchkey/contracts';
import type { Executor } from '@latchkey/db';
import type { Clock } from '../clock.ts';
import { findConsentScope, upsertConsent } from './consents.repository.ts';
import { actorOrDefault, inTransaction, recordActorEvent, type AuditActor } from '../audit/security-events.ts';

/**
 * The scopes this user has approved for this client, or null if they never approved it.
 * D-9, SC-05: a request is approved silently only when these cover every scope it asks for;
 * otherwise the consent page asks again, and says which scopes are new.
 */
export async function consentedScopes(db: Executor, userId: string, clientId: string): Promise<Scope[] | null> {
  const scope = await findConsentScope(db, userId, clientId);
  return scope === undefined ? null : storedScopes(scope);
}

/**
 * D-9, SC-05: remembers the approval, adding these scopes to any approved before. AU-13: the
 * approval is `application.authorized` in the user's log, written in the same transaction
 * (AU-02), by `actor` (the consent page passes the user and the request's origin).
 */
export async function recordConsent(
  db: Executor,
  clock: Clock,
  userId: string,
  clientId: string,
  scopes: readonly Scope[],
  actor?: AuditActor,
): Promise<void> {
  const now = clock.now();
  await inTransaction(db, async (trx) => {
    const before = (await consentedScopes(trx, userId, clientId)) ?? [];
    await upsertConsent(trx, userId, clientId, formatScope([...before, ...scopes]), now);
    await recordActorEvent(trx, actorOrDefault(actor, userId), {
      userId,
      type: 'application.authorized',
      target: { type: 'client', id: clientId },
      at: now,
    });
  });
}

/** Whether this user ever approved this client, whatever the scopes. */
export async function hasConsented(db: Executor, userId: string, clientId: string): Promise<boolean> {
  return (await consentedScopes(db, userId, clientId)) !== null;
}
