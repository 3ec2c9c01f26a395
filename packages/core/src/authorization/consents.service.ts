import type { Executor } from '@latchkey/db';
import type { Clock } from '../clock.ts';
import { findConsent, insertConsent } from './consents.repository.ts';

/** D-9: silent approval only for a user who approved this client before. */
export async function hasConsented(db: Executor, userId: string, clientId: string): Promise<boolean> {
  return findConsent(db, userId, clientId);
}

export async function recordConsent(db: Executor, clock: Clock, userId: string, clientId: string): Promise<void> {
  await insertConsent(db, userId, clientId, clock.now());
}
