import { useState } from 'react';
import { Button } from '../../components/button.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { RegionErrorBoundary } from '../../components/region-error-boundary.tsx';
import { CreateTokenDialog } from '../../features/tokens/components/create-token-dialog.tsx';
import { TokensList } from '../../features/tokens/components/tokens-list.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

export function TokensRoute() {
  useDocumentTitle('API tokens');
  const [creating, setCreating] = useState(false);
  return (
    <div className="page">
      <PageHeader
        title="API tokens"
        description="Personal access tokens call the GraphQL API as you, without an OAuth flow. Applications you authorized are listed too."
        actions={
          <Button variant="primary" onClick={() => setCreating(true)}>
            Generate token
          </Button>
        }
      />
      <RegionErrorBoundary title="Could not show your API tokens">
        <TokensList />
      </RegionErrorBoundary>
      {creating ? <CreateTokenDialog onClose={() => setCreating(false)} /> : null}
    </div>
  );
}
