import type { SecurityEventActor, SecurityEventJson, SecurityEventType } from '@latchkey/contracts';
import type { Executor, SecurityEventsTable } from '@latchkey/db';
import { randomBase62 } from '@latchkey/credentials';

/** Where a request came from, as the log keeps it. */
export interface RequestOrigin {
  ip: string | null;
  userAgent: string | null;
}

/** TR-06's limit: the longest User-Agent kept. */
const MAX_USER_AGENT = 512;

export interface NewSecurityEvent {
  /** Whose log it goes in. */
  userId: string;
  type: SecurityEventType;
  actor: SecurityEventActor;
  actorId?: string | null;
  origin?: RequestOrigin | null;
  target?: { type: string; id: string } | null;
  outcome?: 'success' | 'failure';
  at: number;
}

/**
 * AU-01, AU-02: appends one event to a user's security log, on `db`, which is the transaction of the
 * operation it records: the event commits with it or not at all. Ids only: a value or digest of a
 * credential never goes in (AU-03).
 */
export async function recordSecurityEvent(db: Executor, event: NewSecurityEvent): Promise<void> {
  const agent = event.origin?.userAgent ?? null;
  const row: SecurityEventsTable = {
    // Time-ordered ids: the creation time in base 36, then randomness.
    id: `evt_${event.at.toString(36).padStart(9, '0')}${randomBase62(12)}`,
    user_id: event.userId,
    type: event.type,
    actor: event.actor,
    actor_id: event.actorId ?? null,
    ip: event.origin?.ip ?? null,
    user_agent: agent === null ? null : agent.slice(0, MAX_USER_AGENT),
    target_type: event.target?.type ?? null,
    target_id: event.target?.id ?? null,
    outcome: event.outcome ?? 'success',
    created_at: event.at,
  };
  await db.insertInto('security_events').values(row).execute();
}

export interface SecurityEventFilter {
  userId?: string | undefined;
  type?: SecurityEventType | undefined;
  /** Only events at or after this time (ms). */
  since?: number | undefined;
  /** Paging: only events older than this event id (ids sort by time). */
  before?: string | undefined;
  /** Paging oldest first: only events newer than this event id. */
  after?: string | undefined;
  /** Newest first (the default) or oldest first (AU-07's export). */
  order?: 'asc' | 'desc' | undefined;
  limit?: number | undefined;
}

/** AU-05: a user's (or, for operators, everyone's) events, newest first unless `order` is 'asc'. */
export async function listSecurityEvents(db: Executor, filter: SecurityEventFilter): Promise<SecurityEventsTable[]> {
  let query = db.selectFrom('security_events').selectAll();
  if (filter.userId !== undefined) query = query.where('user_id', '=', filter.userId);
  if (filter.type !== undefined) query = query.where('type', '=', filter.type);
  if (filter.since !== undefined) query = query.where('created_at', '>=', filter.since);
  if (filter.before !== undefined) query = query.where('id', '<', filter.before);
  if (filter.after !== undefined) query = query.where('id', '>', filter.after);
  query = query.orderBy('id', filter.order ?? 'desc');
  if (filter.limit !== undefined) query = query.limit(filter.limit);
  return query.execute();
}

export function presentSecurityEvent(row: SecurityEventsTable): SecurityEventJson {
  return {
    id: row.id,
    type: row.type as SecurityEventType,
    user_id: row.user_id,
    actor: row.actor,
    actor_id: row.actor_id,
    ip: row.ip,
    user_agent: row.user_agent,
    target_type: row.target_type,
    target_id: row.target_id,
    outcome: row.outcome,
    created_at: new Date(Number(row.created_at)).toISOString(),
  };
}

/**
 * AU-04: who performs an operation, as the security log records it: a signed-in user (through
 * the portal's account API or a page, with the request's address and User-Agent) or an operator
 * (the CLI).
 */
export interface AuditActor {
  kind: 'user' | 'operator';
  /** The acting user, for `user`. */
  userId?: string | undefined;
  origin?: RequestOrigin | undefined;
}

/** The CLI's actor: an operator at the machine, no address. */
export const OPERATOR: AuditActor = Object.freeze({ kind: 'operator' });

/** The actor a service was given, or else the user it acts for (an account call) or an operator (no user). */
export function actorOrDefault(actor: AuditActor | undefined, userId: string | undefined): AuditActor {
  return actor ?? (userId === undefined ? OPERATOR : { kind: 'user', userId });
}

/** AU-02: `recordSecurityEvent` for an operation `actor` performed on `ownerId`'s account. */
export function recordActorEvent(
  db: Executor,
  actor: AuditActor,
  event: Omit<NewSecurityEvent, 'actor' | 'actorId' | 'origin'>,
): Promise<void> {
  return recordSecurityEvent(db, {
    ...event,
    actor: actor.kind,
    actorId: actor.userId ?? null,
    origin: actor.origin ?? null,
  });
}

/** Runs `work` in `db`'s transaction, or in a new one: an operation and its event commit together. */
export function inTransaction<T>(db: Executor, work: (trx: Executor) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}
