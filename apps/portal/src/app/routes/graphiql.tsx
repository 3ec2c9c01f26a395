import { PageHeader } from '../../components/page-header.tsx';
import { RegionErrorBoundary } from '../../components/region-error-boundary.tsx';
import { Explorer } from '../../features/graphiql/components/explorer.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

/** The Explorer: loaded only when visited, so the other pages stay light. */
export function GraphiqlRoute() {
  useDocumentTitle('Explorer');
  return (
    <div className="page page--wide page--fill">
      <PageHeader
        title="Explorer"
        description="Run GraphQL queries against the API as yourself. Requests go through the portal with your session, so no token is needed here."
      />
      <RegionErrorBoundary title="The Explorer could not start">
        <Explorer />
      </RegionErrorBoundary>
    </div>
  );
}
