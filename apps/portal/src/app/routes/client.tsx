import { useEffect } from 'react';
import { Link, useParams } from 'react-router';
import { paths } from '../../config/paths.ts';
import { RegionErrorBoundary } from '../../components/region-error-boundary.tsx';
import { useClient } from '../../features/clients/api/get-client.ts';
import { useClientSecrets } from '../../features/clients/api/get-client-secrets.ts';
import { ClientDetails } from '../../features/clients/components/client-details.tsx';
import { EditClientDialog, editClientDraft } from '../../features/clients/components/edit-client-dialog.tsx';
import {
  GenerateSecretDialog,
  generateSecretDraft,
} from '../../features/clients/components/generate-secret-dialog.tsx';
import { forgetDialogDraft, useDraftToReopen } from '../../lib/dialog-draft.ts';

/** /clients/:id, reached from the API clients list. */
export function ClientRoute() {
  const { id = '' } = useParams();
  // AX-11: back from a sign-in the session's end forced, Edit client or Generate a new secret opens again, filled.
  const reopen = useDraftToReopen();
  const restoring = [editClientDraft(id), generateSecretDraft(id)].find((draft) => draft === reopen.dialog);
  return (
    <div className="page">
      <p className="back-link">
        <Link to={paths.clients.href()}>← API clients</Link>
      </p>
      <RegionErrorBoundary title="Could not show this client">
        <ClientDetails id={id} />
        {restoring ? <RestoredClientDialog id={id} draft={restoring} onClose={reopen.close} /> : null}
      </RegionErrorBoundary>
    </div>
  );
}

/** AX-11: Edit client or Generate a new secret (`draft` names which) reopened after sign-in. */
function RestoredClientDialog({ id, draft, onClose }: { id: string; draft: string; onClose: () => void }) {
  const client = useClient(id);
  const secrets = useClientSecrets(id);
  const failed = client.isError || secrets.isError;
  useEffect(() => {
    // The client is gone (deleted in another tab): there is nothing to reopen; the page says why.
    if (failed) forgetDialogDraft();
  }, [failed]);
  if (draft === editClientDraft(id)) {
    return client.data ? <EditClientDialog client={client.data} onClose={onClose} /> : null;
  }
  return secrets.data ? <GenerateSecretDialog clientId={id} current={secrets.data} onClose={onClose} /> : null;
}
