import { z } from 'zod';
import { MAX_REQUEST_ID_LENGTH } from '../pending-authorization.ts';

export const decisionForm = z.object({
  request: z.string().max(MAX_REQUEST_ID_LENGTH),
  csrf_token: z.string().max(128),
  decision: z.enum(['allow', 'deny']),
});
