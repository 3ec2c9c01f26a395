import { resolveResource } from '@latchkey/core';
import type { AuthDeps } from '../../deps.ts';

/**
 * RFC 8707 §2.2 at the token endpoint: the audience a `resource` parameter names (any identifier of
 * the Latchkey API, or a live registered resource server), for core to compare with the code's
 * (RS-04) or the grant's (RS-05) before anything is consumed. Omitted: undefined, the code's or
 * the grant's own. A malformed or unknown one is InvalidTarget here, so nothing is even read.
 */
export async function requestedAudience(deps: AuthDeps, resource: string | undefined): Promise<string | undefined> {
  if (resource === undefined) return undefined;
  return (await resolveResource(deps.db, deps.config.api.url, resource)).audience;
}
