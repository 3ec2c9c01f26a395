// What /oauth/token actually wrote, per grant of one client: whether its code was consumed and
// how many access and refresh tokens hang off it. A complete grant has a consumed code and
// exactly one pair; a grant whose code was never redeemed has none (no partial grants).
import type { Db } from '@latchkey/db';

export interface GrantRows {
  grantId: string;
  revoked: boolean;
  consumed: boolean;
  accessTokens: number;
  refreshTokens: number;
}

export async function rowsPerGrant(db: Db, clientId: string): Promise<GrantRows[]> {
  const [codes, accessTokens, refreshTokens, grants] = await Promise.all([
    db
      .selectFrom('authorization_codes')
      .select(['grant_id', 'consumed_at'])
      .where('client_id', '=', clientId)
      .execute(),
    db.selectFrom('access_tokens').select('grant_id').where('client_id', '=', clientId).execute(),
    db.selectFrom('refresh_tokens').select('grant_id').where('client_id', '=', clientId).execute(),
    db.selectFrom('grants').select(['id', 'revoked_at']).where('client_id', '=', clientId).execute(),
  ]);
  const tally = (rows: Array<{ grant_id: string | null }>) => {
    const counts = new Map<string, number>();
    for (const row of rows) if (row.grant_id !== null) counts.set(row.grant_id, (counts.get(row.grant_id) ?? 0) + 1);
    return counts;
  };
  const consumed = new Map(codes.map((c) => [c.grant_id, c.consumed_at !== null]));
  const ats = tally(accessTokens);
  const rts = tally(refreshTokens);
  return grants.map((g) => ({
    grantId: g.id,
    revoked: g.revoked_at !== null,
    consumed: consumed.get(g.id) ?? false,
    accessTokens: ats.get(g.id) ?? 0,
    refreshTokens: rts.get(g.id) ?? 0,
  }));
}

/** Grants that are neither complete (consumed, one pair) nor untouched (unconsumed, no tokens). */
export function partialGrants(rows: readonly GrantRows[]): GrantRows[] {
  return rows.filter((r) =>
    r.consumed ? r.accessTokens !== 1 || r.refreshTokens !== 1 : r.accessTokens !== 0 || r.refreshTokens !== 0,
  );
}
