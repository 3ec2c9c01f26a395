import { z } from 'zod';

/** A repeated field arrives as an array and fails here, like any other malformed form. */
export const signInForm = z.object({
  email: z.string().max(254),
  password: z.string().max(1024),
  request: z.string().max(64).optional(),
  return_to: z.string().max(2048).optional(),
});
export type SignInForm = z.infer<typeof signInForm>;
