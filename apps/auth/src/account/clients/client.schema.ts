import { z } from 'zod';

/** POST /account/clients. Length and redirect-URL rules (RU-09) are core's, not repeated here. */
export const createClientBody = z.object({
  name: z.string({ error: 'Enter a client name.' }),
  redirect_uri: z.string({ error: 'Enter a redirect URL.' }),
  /** Optional: where /oauth/logout may send the browser back (docs/sign-out.md). */
  post_logout_redirect_uri: z.string({ error: 'The post-logout redirect URL must be a string.' }).optional(),
});
