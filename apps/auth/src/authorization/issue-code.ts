import type { Request, Response } from 'express';
import { issueAuthorizationCode, type Client } from '@latchkey/core';
import { digest } from '@latchkey/credentials';
import type { AuthDeps } from '../deps.ts';
import type { PendingAuthorization } from './pending-authorization.ts';
import { liveResourceServer } from './check-resource.ts';
import { redirectWithCode } from './authorization-response.ts';

/** How many first-party sign-ins one session remembers for its sign-out (SO-09). */
const MAX_FIRST_PARTY_CODES = 20;

/**
 * The one end of an approved authorization request, whether approval was given now (the
 * consent form) or before (a first-party client, a remembered consent): a code under a new
 * grant, sent to the verified redirect URI with the request's state. The grant is for the resource
 * server the request named, which must still be registered (RS-01, RS-09), or for the Latchkey API
 * (RS-03). A first-party sign-in is remembered by the code's digest, so signing this browser out
 * ends it too (SO-09).
 */
export async function issueCodeAndRedirect(
  deps: AuthDeps,
  req: Request,
  res: Response,
  pending: Pick<PendingAuthorization, 'redirectUri' | 'state' | 'codeChallenge' | 'scopes' | 'nonce' | 'resource'>,
  client: Client,
  userId: string,
): Promise<void> {
  const server = await liveResourceServer(deps, pending.resource);
  const code = await issueAuthorizationCode(deps.db, deps.clock, {
    client,
    userId,
    redirectUri: pending.redirectUri,
    codeChallenge: pending.codeChallenge ?? null,
    scopes: pending.scopes,
    // OI-04: the nonce is bound to this code; OI-02: auth_time is when this session signed in.
    nonce: pending.nonce,
    authTime: req.session.authenticatedAt,
    audience: server?.id,
  });
  if (client.firstParty) {
    const earlier = (req.session.firstPartyCodes ?? []).slice(-(MAX_FIRST_PARTY_CODES - 1));
    req.session.firstPartyCodes = [...earlier, digest(code)];
  }
  redirectWithCode(res, deps.config.auth.url, pending, code);
}
