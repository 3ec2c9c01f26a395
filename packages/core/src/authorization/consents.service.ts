import { formatScope, storedScopes, type Scope } from '@latchkey/contracts';
import type { Executor } from '@latchkey/db';
import type { Clock } from '../clock.ts';
import { findConsentScope, upsertConsent } from './consents.repository.ts';

/**
 * The scopes this user has approved for this client, or null if they never approved it.
 * D-9, SC-05: a request is approved silently only when these cover every scope it asks for;
 * otherwise the consent page asks again, and says which scopes are new.
 */
export async function consentedScopes(db: Executor, userId: string, clientId: string): Promise<Scope[] | null> {
  const scope = await findConsentScope(db, userId, clientId);
  return scope === undefined ? null : storedScopes(scope);
}

/** D-9, SC-05: remembers the approval, adding these scopes to any approved before. */
export async function recordConsent(
  db: Executor,
  clock: Clock,
  userId: string,
  clientId: string,
  scopes: readonly Scope[],
): Promise<void> {
  const before = (await consentedScopes(db, userId, clientId)) ?? [];
  await upsertConsent(db, userId, clientId, formatScope([...before, ...scopes]), clock.now());
}

/** Whether this user ever approved this client, whatever the scopes. */
export async function hasConsented(db: Executor, userId: string, clientId: string): Promise<boolean> {
  return (await consentedScopes(db, userId, clientId)) !== null;
}
