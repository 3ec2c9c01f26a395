import type { Executor } from '@latchkey/db';

/** The http(s) origins of a client's redirect URLs, each once; a private-use scheme has none. */
export function redirectOrigins(uris: readonly string[]): string[] {
  const origins = new Set<string>();
  for (const uri of uris) {
    try {
      const url = new URL(uri);
      if (url.protocol === 'https:' || url.protocol === 'http:') origins.add(url.origin);
    } catch {
      // Validated at registration; a URL without an origin is nothing a browser calls from.
    }
  }
  return [...origins];
}

/**
 * Keeps `client_origins` equal to the origins of the client's redirect URLs: written with them,
 * in the same transaction, at registration and on every edit of the list.
 */
export async function replaceClientOrigins(db: Executor, clientId: string, uris: readonly string[]): Promise<void> {
  await db.deleteFrom('client_origins').where('client_id', '=', clientId).execute();
  const origins = redirectOrigins(uris);
  if (origins.length === 0) return;
  await db
    .insertInto('client_origins')
    .values(origins.map((origin) => ({ origin, client_id: clientId })))
    .execute();
}

/**
 * PC-07: whether a browser app on `origin` may call the token, revocation, userinfo and metadata
 * endpoints and `/graphql`: exactly the origin (as the URL parser writes it, which is how
 * browsers send `Origin`) of a redirect URL of an active client. One primary-key lookup joined to
 * the client row, read on every request: a revoked client's origins stop at once (PC-09), an
 * edited redirect URL counts at once, and `https://app.example` never allows
 * `https://app.example.evil` or the same host on another port or scheme.
 */
export async function isAllowedCorsOrigin(db: Executor, origin: string): Promise<boolean> {
  if (origin.length === 0 || origin.length > 300) return false;
  const row = await db
    .selectFrom('client_origins')
    .innerJoin('clients', 'clients.id', 'client_origins.client_id')
    .select('client_origins.client_id')
    .where('client_origins.origin', '=', origin)
    .where('clients.revoked_at', 'is', null)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
