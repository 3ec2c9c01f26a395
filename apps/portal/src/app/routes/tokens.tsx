import { useEffect, useId, useState } from 'react';
import { Button } from '../../components/button.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { RegionErrorBoundary } from '../../components/region-error-boundary.tsx';
import { ApplicationsList } from '../../features/applications/components/applications-list.tsx';
import { usePersonalTokens } from '../../features/tokens/api/get-tokens.ts';
import { CREATE_TOKEN_DRAFT, CreateTokenDialog } from '../../features/tokens/components/create-token-dialog.tsx';
import { EditTokenDialog, editTokenDraft } from '../../features/tokens/components/edit-token-dialog.tsx';
import { ExpiringSoonBanner } from '../../features/tokens/components/expiring-soon-banner.tsx';
import { RollTokenDialog, rollTokenDraft } from '../../features/tokens/components/roll-token-dialog.tsx';
import { TokensList } from '../../features/tokens/components/tokens-list.tsx';
import { forgetDialogDraft, useDraftToReopen } from '../../lib/dialog-draft.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

export function TokensRoute() {
  useDocumentTitle('API tokens');
  const [creating, setCreating] = useState(false);
  // AX-11: back from a sign-in the session's end forced, Generate token opens again, filled;
  // likewise Edit token or Roll token, once the token is listed.
  const reopen = useDraftToReopen();
  const restoring = ['edit-token:', 'roll-token:'].some((kind) => reopen.dialog?.startsWith(kind))
    ? reopen.dialog
    : undefined;
  const applicationsHeading = useId();
  return (
    <div className="page">
      <PageHeader
        title="API tokens"
        description="Personal access tokens call the GraphQL API as you, without an OAuth flow. Below them, the applications you let use your account."
        actions={
          <Button variant="primary" onClick={() => setCreating(true)}>
            Generate token
          </Button>
        }
      />
      <RegionErrorBoundary title="Could not show your API tokens">
        {/* TR-10: above the list, while any token expires soon. */}
        <ExpiringSoonBanner />
        <TokensList />
      </RegionErrorBoundary>
      <section className="page-section" aria-labelledby={applicationsHeading}>
        <h2 id={applicationsHeading} className="page-section__title">
          Authorized applications
        </h2>
        <p className="page-header__description">
          Applications you allowed to use your account, each listed once however many times you signed in to it. Revoke
          access to sign it out everywhere; it will have to ask for your permission again.
        </p>
        <RegionErrorBoundary title="Could not show your authorized applications">
          <ApplicationsList />
        </RegionErrorBoundary>
      </section>
      {creating || reopen.dialog === CREATE_TOKEN_DRAFT ? (
        <CreateTokenDialog
          onClose={() => {
            setCreating(false);
            reopen.close();
          }}
        />
      ) : null}
      {restoring ? <RestoredTokenDialog draft={restoring} onClose={reopen.close} /> : null}
    </div>
  );
}

/** AX-11: Edit token or Roll token (`draft` names which, and the token) reopened after sign-in. */
function RestoredTokenDialog({ draft, onClose }: { draft: string; onClose: () => void }) {
  const tokens = usePersonalTokens();
  const token = tokens.data?.find((t) => draft === editTokenDraft(t.id) || draft === rollTokenDraft(t.id));
  const gone = tokens.data !== undefined && token === undefined;
  useEffect(() => {
    // The token went away meanwhile (revoked in another tab): there is nothing to reopen.
    if (gone) forgetDialogDraft();
  }, [gone]);
  if (!token) return null;
  return draft === editTokenDraft(token.id) ? (
    <EditTokenDialog token={token} onClose={onClose} />
  ) : (
    <RollTokenDialog token={token} onClose={onClose} />
  );
}
