import type { IncomingMessage, ServerResponse } from 'node:http';
import { API_RESOURCE_PATHS } from '@latchkey/contracts';
import type { ApiDeps } from '../deps.ts';
import { JSON_CONTENT_TYPE, sendBody, sendJsonError } from '../http/json-response.ts';
import { protectedResourceMetadata, type ApiResourcePath } from './protected-resource-metadata.ts';

/** The path prefix of RFC 9728 §3's protected-resource metadata documents. */
export const RESOURCE_METADATA_PATH = '/.well-known/oauth-protected-resource';

/**
 * RS-13, RS-14: where the metadata document of the API's resource at `path` ('' for the API,
 * '/graphql', '/mcp') is: RFC 9728 §3 inserts the well-known path between the host and the
 * resource's path. `apiUrl` is API_URL without a trailing slash.
 */
export function resourceMetadataUrl(apiUrl: string, path: ApiResourcePath): string {
  const url = new URL(apiUrl);
  const base = url.pathname === '/' ? '' : url.pathname;
  return `${url.origin}${RESOURCE_METADATA_PATH}${base}${path}`;
}

/** Public facts that change only with the configuration: an hour, as the authorization server's metadata. */
const CACHEABLE = { 'cache-control': 'public, max-age=3600' } as const;

const ALLOW = 'GET, HEAD';

/**
 * RS-13: GET or HEAD /.well-known/oauth-protected-resource{,/graphql,/mcp}, each document
 * serialised once here. An API_URL with a path puts that path after the well-known prefix
 * (resourceMetadataUrl); a proxy in front of such an API must route the origin's
 * `/.well-known/oauth-protected-resource/…` to it. Any other path under the prefix is 404, any
 * other method 405, both in the API's JSON error shape; CORS is app.ts's (PC-07).
 */
export function resourceMetadataRoute(deps: ApiDeps): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const documents = new Map(
    API_RESOURCE_PATHS.map((path) => [
      new URL(resourceMetadataUrl(deps.config.api.url, path)).pathname,
      JSON.stringify(protectedResourceMetadata(deps.config, path)),
    ]),
  );
  return async (req, res) => {
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    const body = documents.get(query === -1 ? url : url.slice(0, query));
    if (body === undefined) return sendJsonError(res, 404, 'Not found', 'NOT_FOUND');
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return sendJsonError(res, 405, 'Method not allowed', 'METHOD_NOT_ALLOWED', { allow: ALLOW });
    }
    // Node sends no body for HEAD, and keeps the Content-Length of the GET.
    sendBody(res, 200, body, JSON_CONTENT_TYPE, CACHEABLE);
  };
}
