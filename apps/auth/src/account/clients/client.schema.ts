import { z } from 'zod';
import { ID_TOKEN_ALGS, ValidationFailed } from '@latchkey/core';

/** An optional detail: a string, or null (or "") to have none. Its rules are core's. */
const detail = (label: string) =>
  z
    .string({ error: `The ${label} must be a string or null.` })
    .nullable()
    .optional();

const details = {
  description: detail('description'),
  client_uri: detail('homepage URL'),
  policy_uri: detail('privacy policy URL'),
  tos_uri: detail('terms of service URL'),
};

/** OI-20: how the client's ID tokens are signed; anything but RS256 or ES256 is a 400 naming the field. */
const idTokenAlg = {
  id_token_signed_response_alg: z
    .enum(ID_TOKEN_ALGS, { error: `id_token_signed_response_alg must be ${ID_TOKEN_ALGS.join(' or ')}.` })
    .optional(),
};

/** DV-24: opts the client in to the device authorization grant (RFC 8628); a non-boolean is a 400 naming it. */
const deviceGrant = {
  device_grant: z.boolean({ error: 'device_grant must be true or false.' }).optional(),
};

const redirectUris = {
  redirect_uri: z.string({ error: 'Enter a redirect URL.' }).optional(),
  redirect_uris: z
    .array(z.string({ error: 'Each redirect URL must be a string.' }), {
      error: 'redirect_uris must be a list of URLs.',
    })
    .optional(),
};

/** POST /account/clients. Length and URL rules (RU-09, CE-02) are core's, not repeated here. */
export const createClientBody = z.object({
  name: z.string({ error: 'Enter a client name.' }),
  ...redirectUris,
  /** Optional: where /oauth/logout may send the browser back (docs/sign-out.md). */
  post_logout_redirect_uri: z.string({ error: 'The post-logout redirect URL must be a string.' }).optional(),
  /**
   * PC-01: a public client (no secret, PKCE required). Fixed at registration: PATCH has no such
   * field, so one sent there is dropped like any unknown field.
   */
  public: z.boolean({ error: 'public must be true or false.' }).optional(),
  ...idTokenAlg,
  ...deviceGrant,
  ...details,
});

/** PATCH /account/clients/{id}: every field optional; what is left out stays as it is. */
export const updateClientBody = z.object({
  name: z.string({ error: 'The client name must be a string.' }).optional(),
  ...redirectUris,
  post_logout_redirect_uri: z
    .string({ error: 'The post-logout redirect URL must be a string or null.' })
    .nullable()
    .optional(),
  ...idTokenAlg,
  ...deviceGrant,
  ...details,
});

/**
 * One redirect URL (`redirect_uri`, the documented form) or a list (`redirect_uris`), never
 * both: which one came decides the `field` an error names.
 */
export function redirectUrisOf(body: {
  redirect_uri?: string | undefined;
  redirect_uris?: string[] | undefined;
}): { redirectUris: string[]; redirectUrisField: 'redirect_uri' | 'redirect_uris' } | undefined {
  if (body.redirect_uri !== undefined && body.redirect_uris !== undefined) {
    throw new ValidationFailed('redirect_uris', 'Send redirect_uri or redirect_uris, not both.');
  }
  if (body.redirect_uris !== undefined) return { redirectUris: body.redirect_uris, redirectUrisField: 'redirect_uris' };
  if (body.redirect_uri !== undefined) return { redirectUris: [body.redirect_uri], redirectUrisField: 'redirect_uri' };
  return undefined;
}
