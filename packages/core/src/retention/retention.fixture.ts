// Rows the purge's tests (RE-*) write straight into the database, each with the times a test
// chooses: what a year of sign-ins, refreshes and revocations would have left behind.
import { randomBytes } from 'node:crypto';
import type { Executor } from '@latchkey/db';

const uid = (prefix: string) => `${prefix}_${randomBytes(10).toString('hex')}`;

export interface Owner {
  userId: string;
  clientId: string;
}

/** A grant (`revokedAt` null: not revoked). */
export async function insertGrant(db: Executor, o: Owner, createdAt: number, revokedAt: number | null = null) {
  const id = uid('grt');
  await db
    .insertInto('grants')
    .values({
      id,
      user_id: o.userId,
      client_id: o.clientId,
      created_at: createdAt,
      revoked_at: revokedAt,
      scope: 'profile',
      audience: 'latchkey_api',
    })
    .execute();
  return id;
}

export async function insertAccessToken(
  db: Executor,
  o: Owner,
  t: {
    kind?: 'pat' | 'oauth';
    grantId?: string | null;
    expiresAt: number;
    revokedAt?: number | null;
    replacedBy?: string | null;
  },
) {
  const id = uid('tok');
  const kind = t.kind ?? 'pat';
  await db
    .insertInto('access_tokens')
    .values({
      id,
      token_hash: randomBytes(16).toString('hex'),
      kind,
      user_id: o.userId,
      client_id: kind === 'pat' ? null : o.clientId,
      grant_id: t.grantId ?? null,
      name: 'retention test',
      last4: 'abcd',
      created_at: t.expiresAt - 1000,
      expires_at: t.expiresAt,
      revoked_at: t.revokedAt ?? null,
      last_used_at: null,
      replaced_by: t.replacedBy ?? null,
      rolled_at: t.replacedBy ? t.expiresAt - 500 : null,
      scope: 'profile',
      audience: 'latchkey_api',
    })
    .execute();
  return id;
}

export async function insertRefreshToken(
  db: Executor,
  o: Owner,
  t: { grantId: string; expiresAt: number; consumedAt?: number | null; parentId?: string | null },
) {
  const id = uid('rft');
  await db
    .insertInto('refresh_tokens')
    .values({
      id,
      token_hash: randomBytes(16).toString('hex'),
      grant_id: t.grantId,
      client_id: o.clientId,
      user_id: o.userId,
      created_at: t.expiresAt - 1000,
      expires_at: t.expiresAt,
      consumed_at: t.consumedAt ?? null,
      parent_id: t.parentId ?? null,
      grace_reused_at: null,
      used_child_id: null,
    })
    .execute();
  return id;
}

export function codeRow(o: Owner, t: { grantId: string; expiresAt: number; consumedAt?: number | null }) {
  return {
    id: uid('cod'),
    code_hash: randomBytes(16).toString('hex'),
    grant_id: t.grantId,
    client_id: o.clientId,
    user_id: o.userId,
    redirect_uri: 'https://client.example/cb',
    code_challenge: null,
    created_at: t.expiresAt - 600_000,
    expires_at: t.expiresAt,
    consumed_at: t.consumedAt ?? null,
    scope: 'profile',
    nonce: null,
    auth_time: null,
    audience: 'latchkey_api',
  };
}

export async function insertCode(
  db: Executor,
  o: Owner,
  t: { grantId: string; expiresAt: number; consumedAt?: number | null },
) {
  const row = codeRow(o, t);
  await db.insertInto('authorization_codes').values(row).execute();
  return row.id;
}

export async function insertDeviceAuthorization(
  db: Executor,
  o: Owner,
  t: { expiresAt: number; decidedAt?: number | null },
) {
  const id = uid('dva');
  const decided = t.decidedAt !== undefined && t.decidedAt !== null;
  await db
    .insertInto('device_authorizations')
    .values({
      id,
      device_code_hash: randomBytes(16).toString('hex'),
      user_code_hash: randomBytes(16).toString('hex'),
      client_id: o.clientId,
      scope: 'profile',
      audience: 'latchkey_api',
      status: decided ? 'approved' : 'pending',
      user_id: decided ? o.userId : null,
      auth_time: null,
      interval_seconds: 5,
      last_polled_at: null,
      created_at: t.expiresAt - 900_000,
      expires_at: t.expiresAt,
      decided_at: t.decidedAt ?? null,
    })
    .execute();
  return id;
}

export async function insertSession(db: Executor, expiresAt: number) {
  const sid = uid('sid');
  await db.insertInto('sessions').values({ sid, data: '{}', expires_at: expiresAt }).execute();
  return sid;
}

export async function insertEvent(db: Executor, o: Owner, createdAt: number) {
  const id = uid('evt');
  await db
    .insertInto('security_events')
    .values({
      id,
      user_id: o.userId,
      type: 'sign_in',
      actor: 'user',
      actor_id: o.userId,
      ip: '192.0.2.1',
      user_agent: 'test',
      target_type: null,
      target_id: null,
      outcome: 'success',
      created_at: createdAt,
    })
    .execute();
  return id;
}

/** Which of `ids` are still in `table`. */
export async function remaining(
  db: Executor,
  table:
    'access_tokens' | 'refresh_tokens' | 'authorization_codes' | 'device_authorizations' | 'grants' | 'security_events',
  ids: readonly string[],
): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom(table).select('id').where('id', 'in', ids).execute();
  return rows.map((r) => r.id).sort();
}
