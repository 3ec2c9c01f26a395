import type { Config } from '@latchkey/config';
import { THIRD_PARTY_SCOPES, type API_RESOURCE_PATHS } from '@latchkey/contracts';

/** One of the API's resources: the API itself (''), or its `/graphql` or `/mcp` endpoint. */
export type ApiResourcePath = (typeof API_RESOURCE_PATHS)[number];

const RESOURCE_NAMES: Record<ApiResourcePath, string> = {
  '': 'Latchkey API',
  '/graphql': 'Latchkey API GraphQL endpoint',
  '/mcp': 'Latchkey API MCP endpoint',
};

/**
 * RS-13: the RFC 9728 §2 metadata of the API's resource at `path`. `resource` is exactly the
 * identifier the document's URL is built from (§3.3: a client that followed a challenge from
 * `/graphql` checks that it names `{API_URL}/graphql`, and the MCP SDK sends it as `resource`
 * at the authorization server, which accepts all three: RS-01). The scopes are what a
 * third-party client may ask this API for (SC-09): not `openid`, which is sign-in, nor the
 * portal's `account`. Only the header carries a token here (RF-03). No `jwks_uri`: the API's
 * tokens are opaque, checked against the database, and it signs nothing.
 */
export function protectedResourceMetadata(
  config: { api: Pick<Config['api'], 'url'>; auth: Pick<Config['auth'], 'url'>; portal: Pick<Config['portal'], 'url'> },
  path: ApiResourcePath,
) {
  return {
    resource: `${config.api.url}${path}`,
    // The issuer, exactly as the authorization server's RFC 8414 document names it.
    authorization_servers: [config.auth.url],
    scopes_supported: THIRD_PARTY_SCOPES,
    bearer_methods_supported: ['header'],
    resource_name: RESOURCE_NAMES[path],
    // Where developers read how to call it: the developer portal, as the authorization server's
    // `service_documentation` says (its Explorer page runs queries and names the MCP URL).
    resource_documentation: `${config.portal.url}/`,
  };
}
