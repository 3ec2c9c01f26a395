import type { ClientsTable, Executor } from '@latchkey/db';
import { recordActorEvent, type AuditActor } from '../audit/security-events.ts';

export type ClientEventType =
  'client.created' | 'client.edited' | 'client.revoked' | 'client.secret_created' | 'client.secret_deleted';

/**
 * AU-12: a client event in its owner's log, on the transaction of the change it records
 * (AU-02). The target is the client's id, or the secret's id for a secret: never a secret's
 * value or digest (AU-03). A client no one owns (the portal's own, a self-registered one) has
 * no log to write to, so nothing is written.
 */
export async function recordClientEvent(
  trx: Executor,
  actor: AuditActor,
  type: ClientEventType,
  client: Pick<ClientsTable, 'id' | 'owner_id'>,
  at: number,
  secretId?: string,
): Promise<void> {
  if (client.owner_id === null) return;
  const target = secretId === undefined ? { type: 'client', id: client.id } : { type: 'client_secret', id: secretId };
  await recordActorEvent(trx, actor, { userId: client.owner_id, type, target, at });
}
