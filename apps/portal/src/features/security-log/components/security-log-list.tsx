import type { SecurityEventType } from '@latchkey/contracts';
import { Button } from '../../../components/button.tsx';
import { DataTable } from '../../../components/data-table.tsx';
import { EmptyState, ErrorState, LoadingState } from '../../../components/query-states.tsx';
import { useSecurityLog } from '../api/get-security-log.ts';
import { EVENT_LABELS } from '../describe-event.ts';
import { SecurityEventRow } from './security-event-row.tsx';
import styles from './security-log.module.css';

/**
 * AU-08: the user's security log, newest first, the events of `type` or all of them: loading,
 * error, empty, or the table with "Load more" while the log has older events (`next`).
 */
export function SecurityLogList({ type }: { type: SecurityEventType | undefined }) {
  const log = useSecurityLog(type);

  if (log.data === undefined) {
    return log.isError ? (
      <ErrorState title="Could not load your security log" error={log.error} onRetry={() => void log.refetch()} />
    ) : (
      <LoadingState label="Loading your security log…" />
    );
  }
  const events = log.data.pages.flatMap((page) => page.events);
  if (events.length === 0) {
    return (
      <EmptyState title="Nothing here yet.">
        {type === undefined
          ? 'Sign-ins and changes to your tokens, clients and authorized applications are listed here as they happen.'
          : `No “${EVENT_LABELS[type]}” event is in your log.`}
      </EmptyState>
    );
  }
  return (
    <>
      <DataTable caption="Security log" columns={['When', 'Event', 'By', 'From', 'Target']}>
        {events.map((event) => (
          // "3 minutes ago" is measured from when the log was read: stable across renders.
          <SecurityEventRow key={event.id} event={event} now={log.dataUpdatedAt} />
        ))}
      </DataTable>
      {log.hasNextPage ? (
        <div className={styles.more}>
          <Button onClick={() => void log.fetchNextPage()} disabled={log.isFetchingNextPage}>
            {log.isFetchingNextPage ? 'Loading…' : 'Load more'}
          </Button>
        </div>
      ) : null}
    </>
  );
}
