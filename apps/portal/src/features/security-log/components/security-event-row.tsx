import type { SecurityEventJson } from '@latchkey/contracts';
import { Badge } from '../../../components/badge.tsx';
import { BreakableText } from '../../../components/breakable-text.tsx';
import { describeUserAgent } from '../../../lib/describe-user-agent.ts';
import { formatDateTime } from '../../../lib/format-date.ts';
import { formatRelativeTime } from '../../../lib/format-relative-time.ts';
import { describeActor, describeTargetType, EVENT_LABELS, shortenId } from '../describe-event.ts';
import styles from './security-log.module.css';

/**
 * AU-08: one event of the log. When: "3 minutes ago" and the exact moment under it; what, with
 * a failure marked; who (AU-04); from which address and client (the User-Agent in short, as
 * TR-15's "last used" says it, the full header on hover); and what it was about, by id (AU-03:
 * an event never holds more), wrapping at / . - _ rather than mid-word (AX-12).
 */
export function SecurityEventRow({ event, now }: { event: SecurityEventJson; now: number }) {
  const failed = event.outcome === 'failure';
  return (
    <tr>
      <td data-label="When">
        <div>
          <time dateTime={event.created_at} title={formatDateTime(event.created_at)}>
            {formatRelativeTime(event.created_at, now)}
          </time>
          <span className="cell-subtitle">{formatDateTime(event.created_at)}</span>
        </div>
      </td>
      <td data-label="Event">
        <span className="cell-with-badge">
          <span>{EVENT_LABELS[event.type]}</span>
          {failed ? <Badge tone="danger">Failed</Badge> : null}
        </span>
      </td>
      <td data-label="By">{describeActor(event)}</td>
      <td data-label="From">
        <EventOrigin ip={event.ip} userAgent={event.user_agent} />
      </td>
      <td data-label="Target">
        {event.target_type === null || event.target_id === null ? (
          <span className="muted">None</span>
        ) : (
          <span>
            {describeTargetType(event.target_type)}{' '}
            <code className={styles.id} title={event.target_id}>
              <BreakableText text={shortenId(event.target_id)} />
            </code>
          </span>
        )}
      </td>
    </tr>
  );
}

/** The address, and below it the client the User-Agent names; "Not recorded" for the CLI and Latchkey itself. */
function EventOrigin({ ip, userAgent }: { ip: string | null; userAgent: string | null }) {
  const client = userAgent === null ? null : describeUserAgent(userAgent);
  if (ip === null && client === null) return <span className="muted">Not recorded</span>;
  return (
    <div>
      {ip !== null ? <span className={styles.id}>{ip}</span> : null}
      {client !== null ? (
        <span className="cell-subtitle" title={userAgent ?? undefined}>
          {client}
        </span>
      ) : null}
    </div>
  );
}
