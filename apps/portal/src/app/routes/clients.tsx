import { useState } from 'react';
import { Button } from '../../components/button.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { RegionErrorBoundary } from '../../components/region-error-boundary.tsx';
import { ClientsList } from '../../features/clients/components/clients-list.tsx';
import { CREATE_CLIENT_DRAFT, CreateClientDialog } from '../../features/clients/components/create-client-dialog.tsx';
import { useDraftToReopen } from '../../lib/dialog-draft.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

export function ClientsRoute() {
  useDocumentTitle('API clients');
  const [creating, setCreating] = useState(false);
  // AX-11: back from a sign-in the session's end forced, New client opens again, filled.
  const reopen = useDraftToReopen();
  return (
    <div className="page">
      <PageHeader
        title="API clients"
        description="OAuth clients let your applications sign people in with Latchkey and call the API on their behalf."
        actions={
          <Button variant="primary" onClick={() => setCreating(true)}>
            New client
          </Button>
        }
      />
      <RegionErrorBoundary title="Could not show your API clients">
        <ClientsList />
      </RegionErrorBoundary>
      {creating || reopen.dialog === CREATE_CLIENT_DRAFT ? (
        <CreateClientDialog
          onClose={() => {
            setCreating(false);
            reopen.close();
          }}
        />
      ) : null}
    </div>
  );
}
