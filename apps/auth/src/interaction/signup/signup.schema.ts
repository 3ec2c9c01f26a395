import { z } from 'zod';
import { MAX_REQUEST_ID_LENGTH } from '../../authorization/pending-authorization.ts';

/** Shape only; the rules (email format, name and password length) live in core's createUser. */
export const signUpForm = z.object({
  name: z.string().max(1000),
  email: z.string().max(1000),
  password: z.string().max(4096),
  request: z.string().max(MAX_REQUEST_ID_LENGTH).optional(),
  return_to: z.string().max(2048).optional(),
});
export type SignUpForm = z.infer<typeof signUpForm>;
