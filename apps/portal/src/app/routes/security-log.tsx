import { useSearchParams } from 'react-router';
import type { SecurityEventType } from '@latchkey/contracts';
import { PageHeader } from '../../components/page-header.tsx';
import { RegionErrorBoundary } from '../../components/region-error-boundary.tsx';
import { EventTypeFilter } from '../../features/security-log/components/event-type-filter.tsx';
import { SecurityLogList } from '../../features/security-log/components/security-log-list.tsx';
import { eventTypeOf, searchFor } from '../../features/security-log/event-type-param.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

/**
 * AU-08: the Security log page: what happened to the account, newest first, a page at a time,
 * filtered by event type (GET /bff/api/security-log, AU-05).
 */
export function SecurityLogRoute() {
  useDocumentTitle('Security log');
  const [searchParams, setSearchParams] = useSearchParams();
  const type = eventTypeOf(searchParams);

  function filterBy(next: SecurityEventType | undefined): void {
    // A new filter replaces the entry: Back leaves the page rather than stepping through filters.
    setSearchParams(searchFor(next), { replace: true });
  }

  return (
    <div className="page">
      <PageHeader
        title="Security log"
        description="What happened to your account, newest first: sign-ins, and changes to your tokens, clients and authorized applications, with who made them and from where."
      />
      <EventTypeFilter value={type} onChange={filterBy} />
      <RegionErrorBoundary title="Could not show your security log">
        <SecurityLogList type={type} />
      </RegionErrorBoundary>
    </div>
  );
}
