import { sql } from 'kysely';
import type { Executor } from '@latchkey/db';

/** `scheme://host[:port]` as a browser writes the Origin header: lower-case, default port left out. */
const ORIGIN = /^(https?):\/\/([a-z0-9.-]+|\[[0-9a-f:.]+\])(?::(\d{1,5}))?$/;

/** The origin of a registered redirect URL, or undefined for one that has none (a private-use scheme). */
function originOf(uri: string): string | undefined {
  try {
    const { protocol, origin } = new URL(uri);
    return protocol === 'https:' || protocol === 'http:' ? origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * PC-07: whether a browser app on `origin` may call the token, revocation, userinfo and metadata
 * endpoints and `/graphql`: exactly the origin of a redirect URL of an active (not revoked)
 * client, read on every request, so a revoked client's origins stop at once (PC-09) and an edited
 * redirect URL counts at once. The database narrows by the host (`lower()`: a registered URL may
 * have upper-case letters in its host, which the URL parser lowers); each candidate's URLs are
 * then parsed and compared exactly, so `https://app.example` never allows
 * `https://app.example.evil` or the same host on another port or scheme.
 */
export async function isAllowedCorsOrigin(db: Executor, origin: string): Promise<boolean> {
  const parsed = ORIGIN.exec(origin);
  if (!parsed) return false;
  const host = parsed[2]!;
  const pattern = `%//${host.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const rows = await db
    .selectFrom('clients')
    .select('redirect_uris')
    .where('revoked_at', 'is', null)
    .where(sql<boolean>`lower(redirect_uris) like ${pattern} escape '\\'`)
    .execute();
  return rows.some((row) => (JSON.parse(row.redirect_uris) as string[]).some((uri) => originOf(uri) === origin));
}
