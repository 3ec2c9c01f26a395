import { LATCHKEY_API_AUDIENCE, latchkeyApiResourceUris, storedScopes, type Scope } from '@latchkey/contracts';
import type { Executor, ResourceServersTable } from '@latchkey/db';
import { InvalidTarget } from '../errors.ts';

/** An API registered beside the Latchkey API (`resource create`), which Latchkey mints tokens for. */
export interface ResourceServer {
  /** Its audience in tokens (`rs_…`). */
  id: string;
  /** Its resource indicator (RFC 8707), normalised (normaliseResourceIndicator). */
  uri: string;
  name: string;
  /** RS-08: the scopes its tokens may carry. */
  scopes: Scope[];
  createdAt: number;
  revokedAt: number | null;
}

export function toResourceServer(row: ResourceServersTable): ResourceServer {
  return {
    id: row.id,
    uri: row.uri,
    name: row.name,
    scopes: storedScopes(row.scope),
    createdAt: Number(row.created_at),
    revokedAt: row.revoked_at === null ? null : Number(row.revoked_at),
  };
}

/** What a `resource` parameter (or its absence) asks a token for. */
export interface ResourceTarget {
  /** The tokens' audience: LATCHKEY_API_AUDIENCE or the resource server's id. */
  audience: string;
  /** The resource server, or undefined for the Latchkey API (whose tokens may carry any scope). */
  server: ResourceServer | undefined;
}

/** RS-03: no `resource`, or one of the API's identifiers: the Latchkey API. */
export const LATCHKEY_API_TARGET: ResourceTarget = { audience: LATCHKEY_API_AUDIENCE, server: undefined };

/**
 * RS-01: a resource indicator as RFC 8707 §2 asks: an absolute http(s) URI without a fragment (or
 * credentials), as its WHATWG serialisation (`https://api.example` and `https://api.example/` are
 * one identifier; path and query are compared exactly). Undefined when it is not one.
 */
export function normaliseResourceIndicator(raw: string): string | undefined {
  if (raw.includes('#')) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username !== '' || url.password !== '') {
    return undefined;
  }
  return url.href;
}

async function findLiveResourceServerByUri(db: Executor, uri: string): Promise<ResourceServer | undefined> {
  const row = await db
    .selectFrom('resource_servers')
    .selectAll()
    .where('uri', '=', uri)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return row && toResourceServer(row);
}

/**
 * RS-01, RS-03: the resource server a `resource` parameter names. None, or one of the Latchkey
 * API's identifiers (`{API_URL}`, `/graphql`, `/mcp`): the API. Otherwise a live registered
 * resource server with exactly that (normalised) URI; anything else is InvalidTarget, whose
 * message never echoes the input.
 */
export async function resolveResource(db: Executor, apiUrl: string, raw: string | undefined): Promise<ResourceTarget> {
  if (raw === undefined) return LATCHKEY_API_TARGET;
  const uri = normaliseResourceIndicator(raw);
  if (uri === undefined) {
    throw new InvalidTarget('resource must be an absolute http or https URI without a fragment.');
  }
  if (latchkeyApiResourceUris(apiUrl).some((api) => normaliseResourceIndicator(api) === uri)) {
    return LATCHKEY_API_TARGET;
  }
  const server = await findLiveResourceServerByUri(db, uri);
  if (!server) throw new InvalidTarget('resource is not a resource server registered with this authorization server.');
  return { audience: server.id, server };
}
