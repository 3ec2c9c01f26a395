import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { Principal } from '@latchkey/core';

/**
 * RS-16: what the MCP SDK hands each tool as `extra.authInfo`: the checked token, its scopes and
 * the resource it was accepted for (RFC 8707), with the principal the token check built, so a
 * tool reads nothing from the database again. A personal access token has no client: ''.
 */
export function toAuthInfo(token: string, principal: Principal, resource: string): AuthInfo {
  return {
    token,
    clientId: principal.clientId ?? '',
    scopes: [...principal.scopes],
    resource: new URL(resource),
    extra: { principal },
  };
}

/** The principal toAuthInfo put there; every MCP request passed the token check first. */
export function principalOf(authInfo: AuthInfo | undefined): Principal {
  const principal = authInfo?.extra?.['principal'];
  if (principal === undefined) throw new Error('MCP request without a checked token');
  return principal as Principal;
}
