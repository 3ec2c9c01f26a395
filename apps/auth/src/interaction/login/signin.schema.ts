import { z } from 'zod';
import { MAX_REQUEST_ID_LENGTH } from '../../authorization/pending-authorization.ts';

/** A repeated field arrives as an array and fails here, like any other malformed form. */
export const signInForm = z.object({
  email: z.string().max(254),
  password: z.string().max(1024),
  request: z.string().max(MAX_REQUEST_ID_LENGTH).optional(),
  return_to: z.string().max(2048).optional(),
});
export type SignInForm = z.infer<typeof signInForm>;
