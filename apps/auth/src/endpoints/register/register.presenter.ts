import { formatScope } from '@latchkey/contracts';
import type { Client, RegisteredDynamicClient } from '@latchkey/core';
import { GrantType } from '../token/token.schema.ts';
import type { ApplicationType, TokenEndpointAuthMethod } from './register.schema.ts';

/** RFC 7592 §2: where a client reads or deletes its registration. */
export function registrationClientUri(issuer: string, registerPath: string, clientId: string): string {
  return `${issuer}${registerPath}/${encodeURIComponent(clientId)}`;
}

/**
 * RFC 7591 §3.2.1 / RFC 7592 §3: the client's registered metadata, as this server keeps it.
 * `scope` is what it may ask for: its scopes and `openid`, which any client may ask for (OI-01).
 * The server does the code and refresh grants for every client, and the device grant for one that
 * asked for it (DV-26), and takes Basic and body credentials from every confidential client
 * (CA-04), so `grant_types` and a confidential client's method are what it does, whatever was
 * asked. No secret: only its digest is kept.
 */
export function presentRegisteredClient(client: Client, registrationUri: string, method?: TokenEndpointAuthMethod) {
  return {
    client_id: client.id,
    client_id_issued_at: Math.floor(client.createdAt / 1000),
    client_name: client.name,
    ...(client.clientUri !== null && { client_uri: client.clientUri }),
    redirect_uris: client.redirectUris,
    grant_types: [
      GrantType.authorizationCode,
      GrantType.refreshToken,
      ...(client.deviceGrant ? [GrantType.deviceCode] : []),
    ],
    response_types: ['code'],
    token_endpoint_auth_method: client.public ? 'none' : (method ?? 'client_secret_basic'),
    scope: formatScope(['openid', ...client.scopes]),
    registration_client_uri: registrationUri,
  };
}

/**
 * RFC 7591 §3.2.1, DR-04: the 201 answer: the metadata, the secret of a confidential client once
 * (`client_secret_expires_at` 0: it does not expire), and the registration access token once.
 */
export function presentRegistration(
  registered: RegisteredDynamicClient,
  registrationUri: string,
  method: TokenEndpointAuthMethod,
  applicationType: ApplicationType,
) {
  return {
    ...presentRegisteredClient(registered.client, registrationUri, method),
    application_type: applicationType,
    ...(registered.clientSecret !== undefined && {
      client_secret: registered.clientSecret,
      client_secret_expires_at: 0,
    }),
    registration_access_token: registered.registrationAccessToken,
  };
}
