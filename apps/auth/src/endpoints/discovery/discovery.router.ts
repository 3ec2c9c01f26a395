import { Router } from 'express';
import type { Config } from '@latchkey/config';
import { REQUESTABLE_SCOPES } from '@latchkey/contracts';
import { ID_TOKEN_ALGS } from '@latchkey/core';
import { PROMPT_VALUES } from '../../authorization/check-prompt.ts';
import type { AuthDeps } from '../../deps.ts';
import { INTROSPECT_PATH } from '../introspect/introspect.router.ts';
import { JWKS_PATH } from '../jwks/jwks.router.ts';
import { DEVICE_AUTHORIZATION_PATH } from '../device-authorization/device-authorization.router.ts';
import { REGISTER_PATH } from '../register/register.router.ts';
import { GrantType } from '../token/token.schema.ts';

type MetadataConfig = Pick<Config, 'auth' | 'portal' | 'clientIdMetadataDocuments' | 'dynamicClientRegistration'>;

export const DISCOVERY_PATH = '/.well-known/oauth-authorization-server';
export const OPENID_CONFIGURATION_PATH = '/.well-known/openid-configuration';

/**
 * RFC 8414 §2 metadata. Only what this server actually does is advertised: the documented
 * interface and what DD-2 adds to it.
 */
export function authorizationServerMetadata(config: MetadataConfig) {
  const issuer = config.auth.url;
  // PC-11: `none` is a public client's client_id with no secret (RFC 8414 §2, RFC 7591 §2).
  const clientAuthMethods = ['client_secret_post', 'client_secret_basic', 'none'];
  return {
    issuer,
    authorization_endpoint: `${issuer}/oauth/authorize`,
    token_endpoint: `${issuer}/oauth/token`,
    revocation_endpoint: `${issuer}/oauth/revoke`,
    // OI-11: RFC 7662 for resource servers; a client_id alone is not authentication there.
    introspection_endpoint: `${issuer}${INTROSPECT_PATH}`,
    // OI-08: the keys that verify ID tokens (RFC 8414 §2 `jwks_uri`).
    jwks_uri: `${issuer}${JWKS_PATH}`,
    // OpenID Connect Core §5.3, which the sign-in libraries read the user from (CL-02).
    userinfo_endpoint: `${issuer}/oauth/userinfo`,
    // OpenID RP-Initiated Logout 1.0 §2.1: where a client sends the browser to sign out (SO-05).
    end_session_endpoint: `${issuer}/oauth/logout`,
    // RFC 8414 §2, SC-09, OI-07: what any client may ask for, `openid` included; `account` is the
    // portal's own and not offered.
    scopes_supported: REQUESTABLE_SCOPES,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token', GrantType.deviceCode],
    // DV-*: RFC 8628 §4, where devices start a sign-in.
    device_authorization_endpoint: `${issuer}${DEVICE_AUTHORIZATION_PATH}`,
    token_endpoint_auth_methods_supported: clientAuthMethods,
    revocation_endpoint_auth_methods_supported: clientAuthMethods,
    introspection_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic'],
    // RFC 9700 §2.1.1: advertising S256 is how clients detect PKCE support (PK-10); the MCP
    // conformance suite's metadata scenario checks it with the issuer and endpoints (RS-21).
    code_challenge_methods_supported: ['S256'],
    // RFC 9207 §3: clients may rely on `iss` in every authorization response (oauth4webapi checks it: CL-04).
    authorization_response_iss_parameter_supported: true,
    // RFC 8414 §2: where developers read how to use this server: the developer portal.
    service_documentation: `${config.portal.url}/`,
    // DR-01: RFC 7591 registration, listed only when DYNAMIC_CLIENT_REGISTRATION is not off.
    ...(config.dynamicClientRegistration.mode !== 'off' && { registration_endpoint: `${issuer}${REGISTER_PATH}` }),
    // CM-11: a client_id may be the https URL of a client ID metadata document (CLIENT_ID_METADATA_DOCUMENTS).
    ...(config.clientIdMetadataDocuments.enabled && { client_id_metadata_document_supported: true }),
  };
}

/**
 * OI-07: OpenID Connect Discovery 1.0 §3, the same facts as the RFC 8414 document plus what an
 * OpenID Provider states, `prompt_values_supported` (OpenID Connect Prompt Create §4.1) included:
 * the values the authorization endpoint acts on (OI-16). The request
 * object and `claims` parameters are not supported, and say so (Discovery §3 defaults
 * `request_uri_parameter_supported` to true). OI-13: this document is all the sign-in libraries
 * of the interoperability suite need besides the client's id and secret.
 */
export function openIdProviderMetadata(config: MetadataConfig) {
  return {
    ...authorizationServerMetadata(config),
    subject_types_supported: ['public'],
    prompt_values_supported: [...PROMPT_VALUES],
    id_token_signing_alg_values_supported: [...ID_TOKEN_ALGS],
    claims_supported: [
      'sub',
      'iss',
      'aud',
      'exp',
      'iat',
      'auth_time',
      'nonce',
      'at_hash',
      'name',
      'email',
      'email_verified',
    ],
    claims_parameter_supported: false,
    request_parameter_supported: false,
    request_uri_parameter_supported: false,
  };
}

/**
 * GET /.well-known/oauth-authorization-server (RFC 8414 §3) and /.well-known/openid-configuration
 * (OpenID Connect Discovery 1.0 §4). Public and cacheable.
 */
export function discoveryRouter(deps: AuthDeps): Router {
  const router = Router();
  const documents = {
    [DISCOVERY_PATH]: JSON.stringify(authorizationServerMetadata(deps.config)),
    [OPENID_CONFIGURATION_PATH]: JSON.stringify(openIdProviderMetadata(deps.config)),
  };
  for (const [path, body] of Object.entries(documents)) {
    router.get(path, (_req, res) => {
      res.setHeader('Cache-Control', 'public, max-age=3600');
      res.removeHeader('Pragma');
      res.type('application/json').send(body);
    });
  }
  return router;
}
