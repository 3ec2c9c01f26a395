import {
  InvalidTarget,
  normaliseResourceIndicator,
  resolveResource,
  type ResourceServer,
  type ResourceTarget,
} from '@latchkey/core';
import { MAX_RESOURCE_LENGTH } from '@latchkey/contracts';
import type { AuthDeps } from '../deps.ts';
import type { AssembledParams } from './authorize-params.ts';
import { AuthorizationError, AuthorizationErrorCode } from './authorize.errors.ts';

/**
 * A registered resource server a pending request is for (RS-11): absent, the Latchkey API (RS-03).
 * Its URI resolves it again when the code is issued, so a server revoked meanwhile gets none.
 */
export interface PendingResource {
  /** The tokens' audience: the resource server's id. */
  audience: string;
  /** Its resource indicator, normalised as registered. */
  uri: string;
}

function tooLongOnceNormalised(raw: string): boolean {
  return (normaliseResourceIndicator(raw)?.length ?? 0) > MAX_RESOURCE_LENGTH;
}

function invalidTarget(description: string): AuthorizationError {
  return new AuthorizationError(AuthorizationErrorCode.invalidTarget, description);
}

/** Core's refusal as this endpoint's redirect error; anything else (an outage) goes on as it is. */
async function resolveOnRedirect(deps: AuthDeps, raw: string | undefined): Promise<ResourceTarget> {
  try {
    return await resolveResource(deps.db, deps.config.api.url, raw);
  } catch (err) {
    if (err instanceof InvalidTarget) throw invalidTarget(err.description);
    throw err;
  }
}

/**
 * RFC 8707 §2 at /oauth/authorize. RS-01: `resource` must be an absolute http(s) URI without a
 * fragment naming the Latchkey API (`{API_URL}`, `/graphql`, `/mcp`) or a live registered resource
 * server, else `invalid_target` on the redirect; the description never repeats it (AC-10).
 * RS-02: one per request (a grant has one audience), so a repeated one is `invalid_target` too.
 * RS-03: none is the Latchkey API, the documented flow.
 */
export async function checkResource(deps: AuthDeps, { params, duplicates }: AssembledParams): Promise<ResourceTarget> {
  if (duplicates.has('resource')) throw invalidTarget('Only one resource may be requested at a time.');
  const raw = params.resource;
  if (raw !== undefined && (raw.length > MAX_RESOURCE_LENGTH || tooLongOnceNormalised(raw))) {
    throw invalidTarget(`resource must be at most ${MAX_RESOURCE_LENGTH} characters.`);
  }
  return resolveOnRedirect(deps, raw);
}

/** What a pending request keeps of its target: nothing for the Latchkey API (RS-03). */
export function pendingResourceOf(target: ResourceTarget): PendingResource | undefined {
  return target.server && { audience: target.audience, uri: target.server.uri };
}

/**
 * The resource server a pending request is for, read again (undefined for the Latchkey API): it
 * names the server on the consent page (RS-11) and is checked once more before a code is issued.
 * Revoked since the request was made (RS-09), it is `invalid_target` on the redirect.
 */
export async function liveResourceServer(
  deps: AuthDeps,
  resource: PendingResource | undefined,
): Promise<ResourceServer | undefined> {
  if (resource === undefined) return undefined;
  const target = await resolveOnRedirect(deps, resource.uri);
  if (target.audience !== resource.audience || !target.server) {
    throw invalidTarget('The resource server is no longer registered with this authorization server.');
  }
  return target.server;
}
