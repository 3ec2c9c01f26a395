import { DEFAULT_ROLL_OVERLAP, isScope, ROLL_OVERLAPS, type RollOverlap, type Scope } from '@latchkey/contracts';
import { z } from 'zod';
import { MAX_EXPIRES_IN_DAYS, parseExpiresAt } from './token-expiry.ts';

/** TR-01: a string, or null (none); core checks its length and characters. */
const DESCRIPTION = z.string({ error: 'description must be a string.' }).nullish();

const SCOPES_SHAPE = 'scopes must be an array of scope names, such as ["profile", "email"].';

/**
 * POST /account/tokens: a name and at most one of `expires_at` (absolute) or
 * `expires_in_days`; with neither the token gets the configured lifetime (one year, D-3).
 * `scopes`: names from the registry; core refuses none and `account`, and defaults to every
 * third-party scope (SC-07).
 */
export const createTokenBody = z
  .object({
    name: z.string({ error: 'Enter a token name.' }),
    description: DESCRIPTION,
    expires_at: z
      .string({ error: 'expires_at must be an ISO 8601 date or date-time string.' })
      .nullish()
      .transform((value, ctx) => {
        if (value === null || value === undefined) return undefined;
        const ms = parseExpiresAt(value);
        if (ms === undefined) {
          ctx.addIssue({
            code: 'custom',
            message:
              'expires_at must be an ISO 8601 date (2027-03-01) or date-time with a time zone (2027-03-01T12:00:00Z).',
          });
          return z.NEVER;
        }
        return ms;
      }),
    expires_in_days: z
      .number({ error: 'expires_in_days must be a whole number of days.' })
      .int({ error: 'expires_in_days must be a whole number of days.' })
      .min(1, { error: 'expires_in_days must be at least 1.' })
      .max(MAX_EXPIRES_IN_DAYS, { error: `expires_in_days must be at most ${MAX_EXPIRES_IN_DAYS}.` })
      .nullish()
      .transform((value) => value ?? undefined),
    scopes: z
      .array(z.string({ error: SCOPES_SHAPE }), { error: SCOPES_SHAPE })
      .optional()
      .transform((names, ctx) => {
        if (names === undefined) return undefined;
        // SC-07: an unknown name is refused here, naming it; what a PAT may hold is core's rule.
        const unknown = names.filter((name) => !isScope(name));
        if (unknown.length > 0) {
          ctx.addIssue({ code: 'custom', message: `Unknown scope: ${unknown.join(', ')}.` });
          return z.NEVER;
        }
        return names as Scope[];
      }),
  })
  .superRefine((body, ctx) => {
    if (body.expires_at !== undefined && body.expires_in_days !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['expires_at'],
        message: 'Send either expires_at or expires_in_days, not both.',
      });
    }
  });

/** PATCH /account/tokens/:id (TR-02): a name, a description (null or "" clears it), or both. */
export const updateTokenBody = z
  .object({
    name: z.string({ error: 'name must be a string.' }).optional(),
    description: DESCRIPTION,
  })
  .refine((body) => body.name !== undefined || body.description !== undefined, {
    message: 'Send a name or a description to change.',
  });

/** POST /account/tokens/:id/roll (TR-03): how long the old value keeps working; none by default. */
export const rollTokenBody = z.object({
  overlap: z
    .enum(Object.keys(ROLL_OVERLAPS) as [RollOverlap, ...RollOverlap[]], {
      error: `overlap must be one of ${Object.keys(ROLL_OVERLAPS).join(', ')}.`,
    })
    .default(DEFAULT_ROLL_OVERLAP),
});
