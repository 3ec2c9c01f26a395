import {
  formatScope,
  latchkeyApiResourceUris,
  MAX_RESOURCE_LENGTH,
  THIRD_PARTY_SCOPES,
  type Scope,
} from '@latchkey/contracts';
import type { Db, Executor } from '@latchkey/db';
import type { Clock } from '../clock.ts';
import { Conflict, NotFound, ValidationFailed } from '../errors.ts';
import { IdPrefix, newId } from '../ids.ts';
import { validateName } from '../text.ts';
import { normaliseResourceIndicator, toResourceServer, type ResourceServer } from './resource-server.ts';
import {
  findResourceServerRowById,
  findLiveResourceServerRowByUri,
  insertResourceServer,
  listResourceServerRows,
  markResourceServerRevoked,
  revokeEverythingOfAudience,
} from './resource-servers.repository.ts';

export interface NewResourceServer {
  uri: string;
  name: string;
  /** RS-08: what its tokens may carry, among the third-party scopes; `profile email` when unset. */
  scopes?: readonly Scope[] | undefined;
}

/** Where plain http is acceptable: the machine itself (a resource server under development). */
const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * RS-07: the URI a resource server is registered under, normalised as `resource` parameters are
 * compared (RS-01): absolute, https (http only on a loopback host, since a token for it travels
 * in the clear otherwise), no fragment, no credentials (RFC 8707 §2).
 */
function validateResourceUri(raw: string): string {
  const uri = normaliseResourceIndicator(raw.trim());
  if (uri === undefined) {
    throw new ValidationFailed('uri', 'Enter an absolute https URI without a fragment or credentials.');
  }
  const url = new URL(uri);
  if (url.protocol !== 'https:' && !LOOPBACK_HOSTS.has(url.hostname)) {
    throw new ValidationFailed('uri', 'The URI must use https (http only on 127.0.0.1, [::1] or localhost).');
  }
  return uri;
}

/** RS-08: a resource server's scopes are third-party scopes that grant access (not `openid`, not `account`). */
function validateResourceScopes(scopes: readonly Scope[] | undefined): Scope[] {
  if (scopes === undefined) return [...THIRD_PARTY_SCOPES];
  const outside = scopes.filter((scope) => !THIRD_PARTY_SCOPES.includes(scope));
  if (outside.length > 0 || scopes.length === 0) {
    throw new ValidationFailed('scope', `A resource server's scopes are among ${THIRD_PARTY_SCOPES.join(', ')}.`);
  }
  return [...scopes];
}

const TAKEN = 'A live resource server is already registered with this URI.';

/**
 * RS-07: registers an API beside the Latchkey API, which clients may then name in `resource`
 * (RFC 8707) and get tokens whose audience is its id. The Latchkey API's own identifiers
 * (`{API_URL}`, `/graphql`, `/mcp`) are refused (Conflict), as is the URI of a live one; a revoked
 * one's URI may be registered again, as a new server whose tokens are not the old one's.
 */
export async function createResourceServer(
  db: Executor,
  clock: Clock,
  apiUrl: string,
  input: NewResourceServer,
): Promise<ResourceServer> {
  const uri = validateResourceUri(input.uri);
  if (uri.length > MAX_RESOURCE_LENGTH) {
    throw new ValidationFailed('uri', `The URI must be at most ${MAX_RESOURCE_LENGTH} characters.`);
  }
  // The server's name is on the consent page (RS-11): the rules of a name other people read.
  const name = validateName(input.name, 'name');
  const scopes = validateResourceScopes(input.scopes);
  if (latchkeyApiResourceUris(apiUrl).some((api) => normaliseResourceIndicator(api) === uri)) {
    throw new Conflict("This URI is the Latchkey API's own: its tokens are the API's.");
  }
  const existing = await findLiveResourceServerRowByUri(db, uri);
  if (existing) throw new Conflict(TAKEN);
  const row = {
    id: newId(IdPrefix.resourceServer),
    uri,
    name,
    scope: formatScope(scopes),
    created_at: clock.now(),
    revoked_at: null,
  };
  try {
    await insertResourceServer(db, row);
  } catch (err) {
    // A concurrent registration of the same URI lost the race on the unique index.
    if (await findLiveResourceServerRowByUri(db, uri)) throw new Conflict(TAKEN, { cause: err });
    throw err;
  }
  return toResourceServer(row);
}

/** RS-07: every registered resource server, revoked ones included, oldest first. */
export async function listResourceServers(db: Executor): Promise<ResourceServer[]> {
  return (await listResourceServerRows(db)).map(toResourceServer);
}

/**
 * RS-09: revokes a resource server: its URI is `invalid_target` from the next request on
 * (resolveResource reads live ones only), and in the same transaction every grant and access
 * token of its audience is revoked and every pending code spent, so its tokens are refused at
 * once (the token check reads the grant and the token, DD-5) and its refresh tokens with their
 * grants. Revoking again keeps the first time and sweeps again. Unknown: NotFound.
 */
export async function revokeResourceServer(db: Db, clock: Clock, id: string): Promise<ResourceServer> {
  const now = clock.now();
  const row = await db.transaction().execute(async (trx) => {
    const found = await findResourceServerRowById(trx, id);
    if (!found) return undefined;
    await markResourceServerRevoked(trx, id, now);
    await revokeEverythingOfAudience(trx, id, now);
    return findResourceServerRowById(trx, id);
  });
  if (!row) throw new NotFound('No such resource server.');
  return toResourceServer(row);
}
