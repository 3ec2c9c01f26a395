import { z } from 'zod';

/** POST /account/clients. Length and redirect-URL rules (RU-09) are core's, not repeated here. */
export const createClientBody = z.object({
  name: z.string({ error: 'Enter a client name.' }),
  redirect_uri: z.string({ error: 'Enter a redirect URL.' }),
});
