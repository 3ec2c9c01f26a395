import { z } from 'zod';

export const decisionForm = z.object({
  request: z.string().max(64),
  csrf_token: z.string().max(128),
  decision: z.enum(['allow', 'deny']),
});
