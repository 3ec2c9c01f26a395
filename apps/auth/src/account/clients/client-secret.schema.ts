import { z } from 'zod';
import { SECRET_EXPIRIES, type SecretExpiry } from '@latchkey/contracts';

const EXPIRIES = Object.keys(SECRET_EXPIRIES) as [SecretExpiry, ...SecretExpiry[]];

/**
 * POST /account/clients/{id}/secrets. SR-03: optionally, when the secret in use now stops
 * working: one of SECRET_EXPIRIES, anything else is 400 naming the field. Left out, it works
 * until deleted.
 */
export const createClientSecretBody = z.object({
  old_secret_expires_in: z
    .enum(EXPIRIES, { error: `old_secret_expires_in must be one of ${EXPIRIES.join(', ')}.` })
    .optional(),
});
