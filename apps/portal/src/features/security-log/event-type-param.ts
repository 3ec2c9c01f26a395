import { isSecurityEventType, type SecurityEventType } from '@latchkey/contracts';

/**
 * AU-08: the Security log's filter lives in its URL (`?type=token.revoked`), so a reload or a
 * shared link keeps it, and the route's loader prefetches what the page reads. Anything but an
 * event type there is every event.
 */
const TYPE_PARAM = 'type';

export function eventTypeOf(search: URLSearchParams): SecurityEventType | undefined {
  const type = search.get(TYPE_PARAM);
  return isSecurityEventType(type) ? type : undefined;
}

/** The search of the page filtered by `type`, or of every event. */
export function searchFor(type: SecurityEventType | undefined): Record<string, string> {
  return type === undefined ? {} : { [TYPE_PARAM]: type };
}
