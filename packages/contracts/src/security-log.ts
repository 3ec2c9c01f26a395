import * as z from 'zod/mini';

/**
 * The security log (issue 36, AU-*): every kind of event a user's log may hold, written once for
 * the servers, the CLI's `--type` and the portal's filter.
 */
export const SECURITY_EVENT_TYPES = [
  'sign_in',
  'sign_in_failed',
  'sign_out',
  'token.created',
  'token.rolled',
  'token.edited',
  'token.revoked',
  'token.expired',
  'token.reported',
  'client.created',
  'client.edited',
  'client.secret_created',
  'client.secret_deleted',
  'client.secret_reported',
  'client.revoked',
  'application.authorized',
  'application.revoked',
  'device.approved',
] as const;
export type SecurityEventType = (typeof SECURITY_EVENT_TYPES)[number];

export function isSecurityEventType(value: unknown): value is SecurityEventType {
  return typeof value === 'string' && (SECURITY_EVENT_TYPES as readonly string[]).includes(value);
}

/** Who acted: the account's user, an operator (the CLI), whoever reported a leaked credential, or Latchkey itself. */
export const SECURITY_EVENT_ACTORS = ['user', 'operator', 'reporter', 'system'] as const;
export type SecurityEventActor = (typeof SECURITY_EVENT_ACTORS)[number];

/** One event as the account API, the CLI and the portal show it: ids and addresses, never a secret. */
export const securityEventJson = z.object({
  id: z.string(),
  type: z.enum(SECURITY_EVENT_TYPES),
  /** Whose log it is in. */
  user_id: z.string(),
  actor: z.enum(SECURITY_EVENT_ACTORS),
  actor_id: z.nullable(z.string()),
  ip: z.nullable(z.string()),
  user_agent: z.nullable(z.string()),
  target_type: z.nullable(z.string()),
  target_id: z.nullable(z.string()),
  outcome: z.enum(['success', 'failure']),
  created_at: z.iso.datetime(),
});
export type SecurityEventJson = z.infer<typeof securityEventJson>;

/**
 * LK-01: POST {AUTH_URL}/credentials/revoke takes at most this many values in one request; more
 * is 413.
 */
export const MAX_REPORTED_CREDENTIALS = 1000;
