import { PageHeader } from '../../components/page-header.tsx';
import { RegionErrorBoundary } from '../../components/region-error-boundary.tsx';
import { Explorer } from '../../features/graphiql/components/explorer.tsx';
import { useSession } from '../../features/session/api/get-session.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

/** The Explorer: loaded only when visited, so the other pages stay light. */
export function GraphiqlRoute() {
  useDocumentTitle('Explorer');
  // The frame has the session already; the Explorer's storage is scoped to this user (SO-08).
  const user = useSession().data;
  return (
    <div className="page page--wide page--fill">
      <PageHeader
        title="Explorer"
        description="Run GraphQL queries against the API as yourself. Requests go through the portal with your session, so no token is needed here."
      />
      <RegionErrorBoundary title="The Explorer could not start">
        {user ? <Explorer userId={user.id} /> : null}
      </RegionErrorBoundary>
    </div>
  );
}
