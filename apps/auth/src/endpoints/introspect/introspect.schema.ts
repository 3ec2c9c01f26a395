import { z } from 'zod';

/** RFC 7662 §2.1 parameters plus client authentication; anything else is ignored. */
export const INTROSPECT_PARAMS = ['token', 'token_type_hint', 'client_id', 'client_secret'] as const;

/** `token_type_hint` is accepted and ignored (RFC 7662 §2.1): the token's prefix says what it is. */
export const introspectParams = z.object({
  token: z.string(),
  token_type_hint: z.string().optional(),
});
