import * as z from 'zod/mini';
import { tokenJson } from './account.ts';

/**
 * The admin CLI's JSON output for tokens: the account API's token, plus what operators need
 * that a user's page does not show (which application, when it was revoked).
 */
export const adminTokenJson = z.extend(tokenJson, {
  client_id: z.nullable(z.string()),
  revoked_at: z.nullable(z.iso.datetime()),
});
export type AdminTokenJson = z.infer<typeof adminTokenJson>;
