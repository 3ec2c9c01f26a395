import type { SelectQueryBuilder } from 'kysely';
import type { Database, Executor } from '@latchkey/db';
import type { Cutoffs, PurgeKind } from './retention.ts';

/** The ids of one kind's rows a purge deletes; every kind's query answers `{ id }`. */
type Ids = SelectQueryBuilder<Database, any, { id: string }>;

/**
 * RE-01: grants past retention: revoked before the cutoff, or made before it with no token or
 * code that still matters (each of them revoked, consumed or expired before the cutoff, or gone).
 * "Still matters" is spelled positively, so a null `revoked_at` or `consumed_at` counts as live.
 */
function deadGrantIds(db: Executor, c: Cutoffs): Ids {
  return db
    .selectFrom('grants as g')
    .select('g.id')
    .where((eb) =>
      eb.or([
        eb('g.revoked_at', '<', c.retention),
        eb.and([
          eb('g.created_at', '<', c.retention),
          eb.not(
            eb.exists(
              eb
                .selectFrom('access_tokens as t')
                .select('t.id')
                .whereRef('t.grant_id', '=', 'g.id')
                .where('t.expires_at', '>=', c.retention)
                .where((e) => e.or([e('t.revoked_at', 'is', null), e('t.revoked_at', '>=', c.retention)])),
            ),
          ),
          eb.not(
            eb.exists(
              eb
                .selectFrom('refresh_tokens as r')
                .select('r.id')
                .whereRef('r.grant_id', '=', 'g.id')
                .where('r.expires_at', '>=', c.retention)
                .where((e) => e.or([e('r.consumed_at', 'is', null), e('r.consumed_at', '>=', c.retention)])),
            ),
          ),
          eb.not(
            eb.exists(
              eb
                .selectFrom('authorization_codes as a')
                .select('a.id')
                .whereRef('a.grant_id', '=', 'g.id')
                .where('a.expires_at', '>=', c.retention)
                .where((e) => e.or([e('a.consumed_at', 'is', null), e('a.consumed_at', '>=', c.retention)])),
            ),
          ),
        ]),
      ]),
    );
}

/** The kinds whose rows hang off a grant (`grant_id`, a foreign key): deleted before it. */
export const GRANT_CHILDREN = ['access_tokens', 'refresh_tokens', 'authorization_codes'] as const;
type GrantChild = (typeof GRANT_CHILDREN)[number];
export type OwnKind = Exclude<PurgeKind, 'grants'>;

/**
 * RE-01, RE-02: what each kind's purge deletes because of its own times. A dead grant's tokens and
 * codes are deleted too (deadGrantIds), whatever their own times, before the grant.
 */
const PAST_RETENTION: Record<
  OwnKind,
  { table: keyof Database; key: 'id' | 'sid'; ids(db: Executor, c: Cutoffs): Ids }
> = {
  // Revoked or expired; a rolled token (replaced_by) stops working at its expires_at.
  access_tokens: {
    table: 'access_tokens',
    key: 'id',
    ids: (db, c) =>
      db
        .selectFrom('access_tokens')
        .select('id')
        .where((eb) => eb.or([eb('revoked_at', '<', c.retention), eb('expires_at', '<', c.retention)])),
  },
  // Consumed or expired, but never while a token rotated from it can still be redeemed: that
  // redemption marks its parent (claimRotationOfChild, HD-07), and a parent gone would read as reuse.
  refresh_tokens: {
    table: 'refresh_tokens',
    key: 'id',
    ids: (db, c) =>
      db
        .selectFrom('refresh_tokens as r')
        .select('r.id')
        .where((eb) => eb.or([eb('r.consumed_at', '<', c.retention), eb('r.expires_at', '<', c.retention)]))
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('refresh_tokens as child')
                .select('child.id')
                .whereRef('child.parent_id', '=', 'r.id')
                .where('child.consumed_at', 'is', null)
                .where('child.expires_at', '>', c.now),
            ),
          ),
        ),
  },
  authorization_codes: {
    table: 'authorization_codes',
    key: 'id',
    ids: (db, c) =>
      db
        .selectFrom('authorization_codes')
        .select('id')
        .where((eb) => eb.or([eb('consumed_at', '<', c.retention), eb('expires_at', '<', c.retention)])),
  },
  // Approved, denied or redeemed (decided_at), or expired, before the cutoff.
  device_authorizations: {
    table: 'device_authorizations',
    key: 'id',
    ids: (db, c) =>
      db
        .selectFrom('device_authorizations')
        .select('id')
        .where((eb) => eb.or([eb('expires_at', '<', c.retention), eb('decided_at', '<', c.retention)])),
  },
  // Expired sessions and used sign-in transaction marks: never served once expired (the session
  // store's own sweep deletes them too, but only when it writes, and never with Redis).
  sessions: {
    table: 'sessions',
    key: 'sid',
    ids: (db, c) => db.selectFrom('sessions').select('sid as id').where('expires_at', '<=', c.now),
  },
  security_events: {
    table: 'security_events',
    key: 'id',
    ids: (db, c) => db.selectFrom('security_events').select('id').where('created_at', '<', c.audit),
  },
};

const isGrantChild = (kind: PurgeKind): kind is GrantChild => (GRANT_CHILDREN as readonly string[]).includes(kind);

/**
 * RE-05: how many rows of `kind` a purge at `c` deletes: past retention by its own times, or
 * (tokens and codes) of a dead grant. The same sets the real run deletes in its two passes.
 */
export async function countPurgeable(db: Executor, kind: PurgeKind, c: Cutoffs): Promise<number> {
  let ids: Ids;
  if (kind === 'grants') ids = deadGrantIds(db, c);
  else if (isGrantChild(kind)) {
    ids = db
      .selectFrom(kind)
      .select('id')
      .where((eb) =>
        eb.or([eb('id', 'in', PAST_RETENTION[kind].ids(db, c)), eb('grant_id', 'in', deadGrantIds(db, c))]),
      );
  } else ids = PAST_RETENTION[kind].ids(db, c);
  const row = await db
    .selectFrom(ids.as('p'))
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * RE-03: deletes at most `limit` rows of `kind` past retention by their own times, chosen by id
 * (`delete … where id in (select id … limit n)` runs on SQLite and PostgreSQL alike): one short
 * statement, its own transaction.
 */
export async function deletePastRetentionBatch(
  db: Executor,
  kind: OwnKind,
  c: Cutoffs,
  limit: number,
): Promise<number> {
  const spec = PAST_RETENTION[kind];
  const result = await db.deleteFrom(spec.table).where(spec.key, 'in', spec.ids(db, c).limit(limit)).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Up to `limit` dead grants (deadGrantIds). */
export async function listDeadGrants(db: Executor, c: Cutoffs, limit: number): Promise<string[]> {
  const rows = await deadGrantIds(db, c).limit(limit).execute();
  return rows.map((row) => row.id);
}

/** RE-03: at most `limit` tokens or codes of the given grants. */
export async function deleteGrantChildrenBatch(
  db: Executor,
  table: GrantChild,
  grantIds: readonly string[],
  limit: number,
): Promise<number> {
  const result = await db
    .deleteFrom(table)
    .where('id', 'in', db.selectFrom(table).select('id').where('grant_id', 'in', grantIds).limit(limit))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The grants themselves, once their tokens and codes are gone (deleteGrantChildrenBatch). */
export async function deleteGrants(db: Executor, grantIds: readonly string[]): Promise<number> {
  const result = await db.deleteFrom('grants').where('id', 'in', grantIds).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export interface ExpiredPersonalAccessToken {
  id: string;
  user_id: string;
  expires_at: number;
}

/**
 * AU-11: personal access tokens that expired (neither revoked nor rolled: those have their own
 * events) and whose owner's log has no `token.expired` event for them yet. Only those that expired
 * since the audit cutoff: an older event would be purged at once, and written again next run.
 */
function expiredWithoutEvent(db: Executor, c: Cutoffs) {
  return db
    .selectFrom('access_tokens as t')
    .where('t.kind', '=', 'pat')
    .where('t.revoked_at', 'is', null)
    .where('t.replaced_by', 'is', null)
    .where('t.expires_at', '<=', c.now)
    .where('t.expires_at', '>=', c.audit)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('security_events as e')
            .select('e.id')
            .whereRef('e.user_id', '=', 't.user_id')
            .whereRef('e.target_id', '=', 't.id')
            .where('e.type', '=', 'token.expired'),
        ),
      ),
    );
}

export async function listExpiredWithoutEvent(
  db: Executor,
  c: Cutoffs,
  limit: number,
): Promise<ExpiredPersonalAccessToken[]> {
  const rows = await expiredWithoutEvent(db, c)
    .select(['t.id', 't.user_id', 't.expires_at'])
    .orderBy('t.id')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ id: row.id, user_id: row.user_id, expires_at: Number(row.expires_at) }));
}

export async function countExpiredWithoutEvent(db: Executor, c: Cutoffs): Promise<number> {
  const row = await expiredWithoutEvent(db, c)
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
