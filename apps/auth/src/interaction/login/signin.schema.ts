import { z } from 'zod';
import { MAX_REQUEST_ID_LENGTH } from '../../authorization/pending-authorization.ts';

/** A repeated field arrives as an array and fails here, like any other malformed form. */
export const signInForm = z.object({
  email: z.string().max(254),
  password: z.string().max(4096), // as sign-up's: the rule (1024 code points) is core's
  request: z.string().max(MAX_REQUEST_ID_LENGTH).optional(),
  return_to: z.string().max(2048).optional(),
});
export type SignInForm = z.infer<typeof signInForm>;
