import { Router } from 'express';
import { THIRD_PARTY_SCOPES } from '@latchkey/contracts';
import type { AuthDeps } from '../../deps.ts';

export const DISCOVERY_PATH = '/.well-known/oauth-authorization-server';

/**
 * RFC 8414 §2 metadata. Only what this server actually does is advertised: the documented
 * interface and what DD-2 adds to it.
 */
export function authorizationServerMetadata(issuer: string, portalUrl: string) {
  // PC-11: `none` is a public client's client_id with no secret (RFC 8414 §2, RFC 7591 §2).
  const clientAuthMethods = ['client_secret_post', 'client_secret_basic', 'none'];
  return {
    issuer,
    authorization_endpoint: `${issuer}/oauth/authorize`,
    token_endpoint: `${issuer}/oauth/token`,
    revocation_endpoint: `${issuer}/oauth/revoke`,
    // OpenID Connect Core §5.3, which the sign-in libraries read the user from (CL-02).
    userinfo_endpoint: `${issuer}/oauth/userinfo`,
    // OpenID RP-Initiated Logout 1.0 §2.1: where a client sends the browser to sign out (SO-05).
    end_session_endpoint: `${issuer}/oauth/logout`,
    // RFC 8414 §2, SC-09: what any client may ask for; `account` is the portal's own and not offered.
    scopes_supported: THIRD_PARTY_SCOPES,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    token_endpoint_auth_methods_supported: clientAuthMethods,
    revocation_endpoint_auth_methods_supported: clientAuthMethods,
    // RFC 9700 §2.1.1: advertising S256 is how clients detect PKCE support (PK-10).
    code_challenge_methods_supported: ['S256'],
    // RFC 9207 §3: clients may rely on `iss` in every authorization response (oauth4webapi checks it: CL-04).
    authorization_response_iss_parameter_supported: true,
    // RFC 8414 §2: where developers read how to use this server: the developer portal.
    service_documentation: `${portalUrl}/`,
  };
}

/** GET /.well-known/oauth-authorization-server (RFC 8414 §3). Public and cacheable. */
export function discoveryRouter(deps: AuthDeps): Router {
  const router = Router();
  const body = JSON.stringify(authorizationServerMetadata(deps.config.auth.url, deps.config.portal.url));
  router.get(DISCOVERY_PATH, (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.removeHeader('Pragma');
    res.type('application/json').send(body);
  });
  return router;
}
