import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiDeps } from '../deps.ts';
import { sendJsonError } from '../http/json-response.ts';

/** The path prefix of RFC 9728 §3's protected-resource metadata documents. */
export const RESOURCE_METADATA_PATH = '/.well-known/oauth-protected-resource';

/**
 * RS-13, RS-14: where the metadata document of the API's resource at `path` ('' for the API,
 * '/graphql', '/mcp') is: RFC 9728 §3 inserts the well-known path between the host and the
 * resource's path. `apiUrl` is API_URL without a trailing slash.
 */
export function resourceMetadataUrl(apiUrl: string, path: '' | '/graphql' | '/mcp'): string {
  const url = new URL(apiUrl);
  const base = url.pathname === '/' ? '' : url.pathname;
  return `${url.origin}${RESOURCE_METADATA_PATH}${base}${path}`;
}

/** RS-13: GET /.well-known/oauth-protected-resource{,/graphql,/mcp}. (Being built: issue 31.) */
export function resourceMetadataRoute(_deps: ApiDeps): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return async (_req, res) => sendJsonError(res, 404, 'Not found', 'NOT_FOUND');
}
