import { z } from 'zod';
import { MAX_VERIFICATION_KEY_LENGTH } from './device-verification.ts';

/** What the code page posts; a repeated field arrives as an array and fails, as any malformed form. */
export const userCodeForm = z.object({
  user_code: z.string().max(64),
});

/** The device consent page's decision. */
export const deviceDecisionForm = z.object({
  request: z.string().max(MAX_VERIFICATION_KEY_LENGTH),
  csrf_token: z.string().max(128),
  decision: z.enum(['approve', 'deny']),
});
