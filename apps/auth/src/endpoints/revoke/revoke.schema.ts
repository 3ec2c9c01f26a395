import { z } from 'zod';

/** RFC 7009 §2.1 parameters plus client authentication; anything else is ignored. */
export const REVOKE_PARAMS = ['token', 'token_type_hint', 'client_id', 'client_secret'] as const;

/**
 * `token_type_hint` is optional and only a hint (RFC 7009 §2.1): the token's prefix already
 * says what it is, so the hint is accepted and not needed.
 */
export const revokeParams = z.object({
  token: z.string(),
  token_type_hint: z.string().optional(),
});
