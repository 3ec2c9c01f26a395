import { describeUserAgent } from '../lib/describe-user-agent.ts';
import { formatDateTime } from '../lib/format-date.ts';
import { formatRelativeTime } from '../lib/format-relative-time.ts';

interface LastUsedProps {
  /** When, ISO 8601; null: never. */
  at: string | null;
  /** The client's address, as the API saw it (TRUST_PROXY respected). */
  ip: string | null;
  userAgent: string | null;
  /** What "ago" is measured from (ms): the time the list was fetched, so it holds still between fetches. */
  now: number;
}

/**
 * TR-15: where a token or an application was last used: "Last used 2 days ago" and, below,
 * "from 203.0.113.7 · curl/8.5", the exact time and the full User-Agent on hover; "Never used"
 * when it never was. A part the server does not know (a use recorded before it kept them) is left out.
 */
export function LastUsed({ at, ip, userAgent, now }: LastUsedProps) {
  if (at === null) return <span className="muted">Never used</span>;
  const client = userAgent === null ? null : describeUserAgent(userAgent);
  return (
    <div>
      <span>
        Last used{' '}
        <time dateTime={at} title={formatDateTime(at)}>
          {formatRelativeTime(at, now)}
        </time>
      </span>
      {ip !== null || client !== null ? (
        <span className="cell-subtitle">
          {ip !== null ? `from ${ip}` : null}
          {ip !== null && client !== null ? ' · ' : null}
          {client !== null ? <span title={userAgent ?? undefined}>{client}</span> : null}
        </span>
      ) : null}
    </div>
  );
}
