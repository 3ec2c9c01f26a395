import { z } from 'zod';

/**
 * RFC 8628 §3.1 parameters plus client authentication; anything else is ignored (P-01), a repeated
 * one refused (P-02; a repeated `resource` is `invalid_target`, RS-02).
 */
export const DEVICE_AUTHORIZATION_PARAMS = ['client_id', 'client_secret', 'scope', 'resource'] as const;

export const deviceAuthorizationParams = z.object({
  scope: z.string().optional(), // DV-10: as at /oauth/authorize; omitted, the client's default
  resource: z.string().optional(), // DV-10: RFC 8707, the Latchkey API when omitted
});
