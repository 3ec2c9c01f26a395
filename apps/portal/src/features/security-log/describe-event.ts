import type { SecurityEventJson, SecurityEventType } from '@latchkey/contracts';

/**
 * AU-08: how the Security log page words an event, in the user's terms rather than the API's
 * type names (docs/security-log.md lists what each means). Typed by the contract's list, so a
 * new event type does not compile until it has its label.
 */
export const EVENT_LABELS: Record<SecurityEventType, string> = {
  sign_in: 'Sign-in',
  sign_in_failed: 'Failed sign-in',
  sign_out: 'Sign-out',
  'token.created': 'Token created',
  'token.rolled': 'Token rolled',
  'token.edited': 'Token edited',
  'token.revoked': 'Token revoked',
  'token.expired': 'Token expired',
  'token.reported': 'Token reported as exposed',
  'client.created': 'Client created',
  'client.edited': 'Client edited',
  'client.secret_created': 'Client secret created',
  'client.secret_deleted': 'Client secret deleted',
  'client.secret_reported': 'Client secret reported as exposed',
  'client.revoked': 'Client revoked',
  'application.authorized': 'Application authorized',
  'application.revoked': 'Application access revoked',
  'device.approved': 'Device sign-in approved',
};

/**
 * Who acted (AU-04): the user, an operator at the admin CLI, whoever reported a leaked
 * credential, or Latchkey itself (a token reaching its expiry). A failed sign-in is by someone
 * who typed this account's email, not necessarily its owner: the log does not know who.
 */
export function describeActor(event: SecurityEventJson): string {
  switch (event.actor) {
    case 'user':
      return event.actor_id === event.user_id ? 'You' : 'Someone';
    case 'operator':
      return 'An operator';
    case 'reporter':
      return 'Someone who reported it exposed';
    case 'system':
      return 'Latchkey';
  }
}

/** What a target is, by the `target_type` the servers write (docs/security-log.md); its own name otherwise. */
const TARGET_NOUNS: Record<string, string> = {
  access_token: 'Token',
  refresh_token: 'Refresh token',
  client: 'Client',
  client_secret: 'Client secret',
  device_authorization: 'Device sign-in',
};

export function describeTargetType(targetType: string): string {
  return TARGET_NOUNS[targetType] ?? targetType.replaceAll('_', ' ');
}

const SHORT_ID = 16;

/** An id short enough for a table cell: its start (the kind prefix) and its last four characters. */
export function shortenId(id: string): string {
  return id.length <= SHORT_ID ? id : `${id.slice(0, 10)}…${id.slice(-4)}`;
}
