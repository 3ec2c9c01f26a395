import { z } from 'zod';
import { ValidationFailed, type DynamicClientRequest } from '@latchkey/core';
import { GrantType } from '../token/token.schema.ts';

/** RFC 7591 §2: how a client authenticates at the token endpoint; `none` is a public client (PC-01). */
export const TOKEN_ENDPOINT_AUTH_METHODS = ['none', 'client_secret_basic', 'client_secret_post'] as const;
export type TokenEndpointAuthMethod = (typeof TOKEN_ENDPOINT_AUTH_METHODS)[number];

/**
 * RFC 7591 §2: the grants this server has (RFC 8414 `grant_types_supported`). The device grant
 * (RFC 8628) is the one a client opts in to (DV-26); the other two every client has.
 */
const GRANT_TYPES = [GrantType.authorizationCode, GrantType.refreshToken, GrantType.deviceCode] as const;

/** OpenID Connect Registration §2 `application_type`. */
export const APPLICATION_TYPES = ['web', 'native'] as const;
export type ApplicationType = (typeof APPLICATION_TYPES)[number];

const grantTypesError = `grant_types may list only ${GRANT_TYPES.join(', ')}.`;
const responseTypesError = 'response_types may list only code.';

/** A field sent as JSON null is read as left out: several clients send every field they know. */
const optional = <T extends z.ZodType>(schema: T) => schema.nullish().transform((value) => value ?? undefined);

/**
 * RFC 7591 §2 client metadata, the fields this server reads (DR-03); any other field is dropped
 * (RFC 7591 §2: "The authorization server MUST ignore any client metadata sent by the client
 * that it does not understand"). The URL and name rules are core's (createClient), as for the
 * portal; here only the shapes and the values of the enumerations.
 */
export const registrationRequestBody = z.object({
  redirect_uris: optional(
    z.array(z.string({ error: 'Each redirect URI must be a string.' }), {
      error: 'redirect_uris must be an array of URLs.',
    }),
  ),
  client_name: optional(z.string({ error: 'client_name must be a string.' })),
  client_uri: optional(z.string({ error: 'client_uri must be a string.' })),
  token_endpoint_auth_method: optional(
    z.enum(TOKEN_ENDPOINT_AUTH_METHODS, {
      error: `token_endpoint_auth_method must be one of ${TOKEN_ENDPOINT_AUTH_METHODS.join(', ')}.`,
    }),
  ),
  grant_types: optional(
    z
      .array(z.enum(GRANT_TYPES, { error: grantTypesError }), { error: grantTypesError })
      // RFC 7591 §2.1: response_types `code` goes with the authorization_code grant.
      .refine((grants) => grants.includes('authorization_code'), {
        error: 'grant_types must include authorization_code.',
      }),
  ),
  response_types: optional(
    z
      .array(z.literal('code', { error: responseTypesError }), { error: responseTypesError })
      .min(1, { error: 'response_types must include code.' }),
  ),
  scope: optional(z.string({ error: 'scope must be a space-separated string.' })),
  application_type: optional(
    z.enum(APPLICATION_TYPES, { error: `application_type must be ${APPLICATION_TYPES.join(' or ')}.` }),
  ),
});

export interface RegistrationRequest {
  client: DynamicClientRequest;
  tokenEndpointAuthMethod: TokenEndpointAuthMethod;
  applicationType: ApplicationType;
}

/**
 * The body as core's request. RFC 7591 §2: `token_endpoint_auth_method` defaults to
 * client_secret_basic, so a client that names none is confidential and gets a secret;
 * `application_type` defaults to web (OpenID Connect Registration §2). A problem names its
 * field (ValidationFailed), which the error handler answers as RFC 7591 §3.2.2 says.
 */
export function readRegistrationRequest(body: unknown): RegistrationRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ValidationFailed('body', 'The request body must be a JSON object of client metadata.');
  }
  const result = registrationRequestBody.safeParse(body);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new ValidationFailed(typeof issue.path[0] === 'string' ? issue.path[0] : 'body', issue.message);
  }
  const data = result.data;
  const tokenEndpointAuthMethod = data.token_endpoint_auth_method ?? 'client_secret_basic';
  return {
    client: {
      redirectUris: data.redirect_uris ?? [],
      name: data.client_name,
      clientUri: data.client_uri,
      public: tokenEndpointAuthMethod === 'none',
      scope: data.scope,
      // DV-26: listing the device grant opts the client in to it; left out, it has none.
      deviceGrant: data.grant_types?.includes(GrantType.deviceCode) === true,
    },
    tokenEndpointAuthMethod,
    applicationType: data.application_type ?? 'web',
  };
}
