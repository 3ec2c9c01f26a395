import type { Executor } from '@latchkey/db';
import type { Clock } from '../clock.ts';
import { ValidationFailed } from '../errors.ts';

/** CM-17: a host an operator refused (`client block --host`), as the CLI shows it. */
export interface BlockedHost {
  host: string;
  createdAt: number;
}

/**
 * Characters that would make `https://<host>/` mean another host than the text shows: a path,
 * query, fragment, userinfo or port delimiter, a backslash (a path separator for https), and
 * white space or controls (the URL parser drops tabs and newlines, so `app.\nexample` would
 * become `app.example`). A host with any of them is refused, not repaired.
 */
const NOT_IN_A_HOST = /[/?#@:\\\s\p{Cc}]/u;

/**
 * A host as URLs carry it: lower case, IDNA (punycode), no port, no trailing dot. What the
 * WHATWG URL parser makes of `https://<host>/` is the one comparison both sides use (CM-18).
 */
export function normalizeClientHost(host: string): string {
  const trimmed = host.trim().replace(/\.$/, '');
  let parsed: URL | undefined;
  try {
    parsed = trimmed !== '' && !NOT_IN_A_HOST.test(trimmed) ? new URL(`https://${trimmed}/`) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!parsed || parsed.hostname === '' || parsed.hostname.endsWith('.'))
    throw new ValidationFailed('host', 'host must be a host name, like app.example.com.');
  return parsed.hostname;
}

/** The host of a metadata-document client's id (its URL), normalised as normalizeClientHost does. */
export function hostOfClientId(clientId: string): string | undefined {
  try {
    return new URL(clientId).hostname.replace(/\.$/, '');
  } catch {
    return undefined;
  }
}

export async function isClientHostBlocked(db: Executor, host: string): Promise<boolean> {
  const row = await db
    .selectFrom('blocked_client_hosts')
    .select('host')
    .where('host', '=', host.toLowerCase().replace(/\.$/, ''))
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Blocks a host: its documents are refused from now on (CM-13, CM-17), and every client whose id is
 * a document on it is revoked, so their tokens stop working at once (RV-03). Idempotent.
 * Returns the clients revoked now.
 */
export async function blockClientHost(
  db: Executor,
  clock: Clock,
  host: string,
): Promise<{ host: string; revokedClients: string[] }> {
  const normalized = normalizeClientHost(host);
  const now = clock.now();
  const block = async (trx: Executor) => {
    await trx
      .insertInto('blocked_client_hosts')
      .values({ host: normalized, created_at: now })
      .onConflict((oc) => oc.column('host').doNothing())
      .execute();
    const live = await trx
      .selectFrom('clients')
      .select('id')
      .where('registration', '=', 'metadata_document')
      .where('revoked_at', 'is', null)
      .execute();
    const revoked = live.map((row) => row.id).filter((id) => hostOfClientId(id) === normalized);
    if (revoked.length > 0) {
      await trx.updateTable('clients').set({ revoked_at: now }).where('id', 'in', revoked).execute();
    }
    return revoked;
  };
  const revokedClients = await (db.isTransaction ? block(db) : db.transaction().execute(block));
  return { host: normalized, revokedClients };
}

/** Accepts the host's documents again; clients revoked by the block stay revoked. False when it was not blocked. */
export async function unblockClientHost(db: Executor, host: string): Promise<boolean> {
  const result = await db
    .deleteFrom('blocked_client_hosts')
    .where('host', '=', normalizeClientHost(host))
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function listBlockedClientHosts(db: Executor): Promise<BlockedHost[]> {
  const rows = await db.selectFrom('blocked_client_hosts').selectAll().orderBy('host').execute();
  return rows.map((row) => ({ host: row.host, createdAt: Number(row.created_at) }));
}
