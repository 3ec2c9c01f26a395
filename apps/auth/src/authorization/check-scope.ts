import { coversScopes, parseScope, SCOPES, sortScopes, type Scope } from '@latchkey/contracts';
import type { Client, ResourceServer } from '@latchkey/core';
import type { AssembledParams } from './authorize-params.ts';
import { AuthorizationError, AuthorizationErrorCode } from './authorize.errors.ts';

function invalidScope(description: string): AuthorizationError {
  return new AuthorizationError(AuthorizationErrorCode.invalidScope, description);
}

/**
 * The scopes the request asks for (RFC 6749 §3.3). SC-02: a name outside the registry, or one
 * this client may not hold (`account` for a third-party client) is
 * `invalid_scope` on the redirect (RFC 6749 §4.1.2.1); the description names no input (AC-10).
 * SC-03: no `scope`, or only spaces, is the client's registered default. OI-01: `openid` is for
 * any client and in no default; it is added to what the rest asks for, so `openid` alone is the
 * default and `openid` (Auth.js and openid-client send `openid profile email` or a bare `openid`).
 * RS-08: for a registered resource server (`server`), the access scopes must be among its own, and
 * the default is the client's default within them; `openid` asks the client's ID token, for any.
 */
export function checkScope(client: Client, { params }: AssembledParams, server?: ResourceServer): Scope[] {
  const parsed = parseScope(params.scope ?? '');
  if (!parsed.ok) throw invalidScope('The scope parameter names a scope that is unknown or not supported.');
  const signIn = parsed.scopes.filter((s) => SCOPES[s].signIn);
  const access = parsed.scopes.filter((s) => !SCOPES[s].signIn);
  if (!coversScopes(client.scopes, access)) {
    throw invalidScope('The scope parameter asks for a scope this application may not have.');
  }
  if (server && !coversScopes(server.scopes, access)) {
    throw invalidScope('The scope parameter asks for a scope the resource server does not accept.');
  }
  const byDefault = server ? client.scopes.filter((s) => server.scopes.includes(s)) : client.scopes;
  if (server && access.length === 0 && byDefault.length === 0) {
    throw invalidScope('The resource server accepts none of the scopes this application has by default.');
  }
  return sortScopes([...(access.length === 0 ? byDefault : access), ...signIn]);
}
