import { useId, useState } from 'react';
import { Button } from '../../components/button.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { RegionErrorBoundary } from '../../components/region-error-boundary.tsx';
import { ApplicationsList } from '../../features/applications/components/applications-list.tsx';
import { CreateTokenDialog } from '../../features/tokens/components/create-token-dialog.tsx';
import { ExpiringSoonBanner } from '../../features/tokens/components/expiring-soon-banner.tsx';
import { TokensList } from '../../features/tokens/components/tokens-list.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

export function TokensRoute() {
  useDocumentTitle('API tokens');
  const [creating, setCreating] = useState(false);
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
      {creating ? <CreateTokenDialog onClose={() => setCreating(false)} /> : null}
    </div>
  );
}
