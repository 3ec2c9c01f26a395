/**
 * RS-03: the audience of every token that did not ask for another resource server (RFC 8707): the
 * Latchkey API, its GraphQL and MCP endpoints. Stored as this constant, not as a URL, so that a
 * changed API_URL orphans no token; a registered resource server's audience is its id (`rs_…`).
 */
export const LATCHKEY_API_AUDIENCE = 'latchkey_api';

/** RS-13: the Latchkey API's endpoints that are resources of their own (RFC 9728 §3: a metadata document each). */
export const API_RESOURCE_PATHS = ['', '/graphql', '/mcp'] as const;

/**
 * RS-01: the Latchkey API's resource identifiers for `apiUrl` (API_URL, without a trailing slash):
 * the API itself and its endpoints. Any of them asks for a token of the API's audience.
 */
export function latchkeyApiResourceUris(apiUrl: string): string[] {
  return API_RESOURCE_PATHS.map((path) => `${apiUrl}${path}`);
}

/**
 * RS-01, RS-07: the longest resource indicator taken, as sent and once normalised (percent-encoding
 * lengthens it): registered URIs are far shorter, and the one asked for travels in a visitor's
 * sealed authorization request (MAX_REQUEST_ID_LENGTH).
 */
export const MAX_RESOURCE_LENGTH = 1024;
