import { lazy, Suspense } from 'react';
import { PageHeader } from '../../components/page-header.tsx';
import { LoadingState } from '../../components/query-states.tsx';
import { RegionErrorBoundary } from '../../components/region-error-boundary.tsx';
import { McpConnect } from '../../features/graphiql/components/mcp-connect.tsx';
import { TabKeyNote } from '../../features/graphiql/components/tab-key-note.tsx';
import { loadExplorer } from '../../features/graphiql/load-explorer.ts';
import { useMcpUrl, useSession } from '../../features/session/api/get-session.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

const Explorer = lazy(async () => ({ default: (await loadExplorer()).Explorer }));

/**
 * The Explorer. This route's own module is small: its title and a loading state show at once,
 * while the editor's large chunk (loadExplorer) arrives, so a slow phone shows signs of life.
 * Above the editor, how to leave it by keyboard (AX-05). Below it, the MCP URL to paste into an
 * MCP client (RS-22): the editor keeps the space above.
 */
export function GraphiqlRoute() {
  useDocumentTitle('Explorer');
  // The frame has the session already; the Explorer's storage is scoped to this user (SO-08).
  const user = useSession().data;
  const mcpUrl = useMcpUrl().data;
  return (
    <div className="page page--wide page--fill">
      <PageHeader
        title="Explorer"
        description="Run GraphQL queries against the API as yourself. Requests go through the portal with your session, so no token is needed here."
      />
      <TabKeyNote />
      <RegionErrorBoundary title="The Explorer could not start">
        <Suspense fallback={<LoadingState label="Loading the Explorer…" />}>
          {user ? <Explorer userId={user.id} /> : null}
        </Suspense>
      </RegionErrorBoundary>
      {mcpUrl ? <McpConnect url={mcpUrl} /> : null}
    </div>
  );
}
