import { useRef, useState } from 'react';
import { DataTable } from '../../../components/data-table.tsx';
import { LastUsed } from '../../../components/last-used.tsx';
import { EmptyState, ErrorState, LoadingState } from '../../../components/query-states.tsx';
import { RevokeDialog } from '../../../components/revoke-dialog.tsx';
import { RowActionButton } from '../../../components/row-action-button.tsx';
import { Time } from '../../../components/time.tsx';
import { REVOKE_ACTION, useFocusAfterRevoke } from '../../../components/use-focus-after-revoke.ts';
import { useApplications, type AuthorizedApplication } from '../api/get-applications.ts';
import { useRevokeApplication } from '../api/revoke-application.ts';

/**
 * CM-16, CM-19: what the list calls an application. One known by its client ID metadata
 * document is named by the host the document is on, which is what the user can judge; the name
 * it gives itself is only what it "calls itself".
 */
function applicationTitle(app: AuthorizedApplication): string {
  return app.registration === 'metadata_document' && app.host !== null ? `App from ${app.host}` : app.name;
}

/** Beside the name: its owner, or that it registered itself and nobody verified it (CM-19). */
function applicationByline(app: AuthorizedApplication): string {
  switch (app.registration) {
    case 'metadata_document':
      return `Calls itself “${app.name}” · not verified`;
    case 'dynamic':
      return 'Registered itself · not verified';
    default:
      return app.owner_name === null ? 'Latchkey' : `by ${app.owner_name}`;
  }
}

/**
 * The third-party applications the user authorized, one row each, with Revoke access (AA-01,
 * AA-09) naming it (AX-02). A revoked one leaves the list; focus moves to the next one's Revoke
 * access, or to the empty state once none is left (AX-03).
 */
export function ApplicationsList() {
  const applications = useApplications();
  const revoke = useRevokeApplication();
  const [revoking, setRevoking] = useState<AuthorizedApplication | null>(null);
  const emptyTitle = useRef<HTMLParagraphElement>(null);
  const { listRef, revoked } = useFocusAfterRevoke(() => emptyTitle.current);

  function openRevoke(app: AuthorizedApplication): void {
    revoke.reset();
    setRevoking(app);
  }

  if (applications.data === undefined) {
    return applications.isError ? (
      <ErrorState
        title="Could not load your authorized applications"
        error={applications.error}
        onRetry={() => void applications.refetch()}
      />
    ) : (
      <LoadingState label="Loading authorized applications…" />
    );
  }
  if (applications.data.length === 0) {
    return (
      <EmptyState ref={emptyTitle} title="No authorized applications">
        Applications you allow to use your account through “Sign in with Latchkey” are listed here.
      </EmptyState>
    );
  }
  return (
    <>
      <DataTable
        ref={listRef}
        caption="Authorized applications"
        columns={['Application', 'Scopes', 'First authorized', 'Last used', 'Active sign-ins', '']}
      >
        {applications.data.map((app) => (
          <ApplicationRow
            key={app.client_id}
            app={app}
            now={applications.dataUpdatedAt}
            onRevoke={() => openRevoke(app)}
          />
        ))}
      </DataTable>
      {revoking ? (
        <RevokeDialog
          title="Revoke access?"
          id={revoking.client_id}
          revoke={revoke}
          confirmLabel="Revoke access"
          revokedMessage={`Revoked the access of “${applicationTitle(revoking)}”.`}
          onRevoked={() => revoked(revoking.client_id)}
          onClose={() => setRevoking(null)}
        >
          <p>
            <strong>{applicationTitle(revoking)}</strong> can no longer use your account: every sign-in it holds ends
            now and the API refuses its tokens from the next request on. If you use it again, it will ask for your
            permission again.
          </p>
        </RevokeDialog>
      ) : null}
    </>
  );
}

function ApplicationRow({
  app,
  now,
  onRevoke,
}: {
  app: AuthorizedApplication;
  /** When the list was fetched (ms): what "2 days ago" is measured from. */
  now: number;
  onRevoke: () => void;
}) {
  return (
    <tr data-row-key={app.client_id}>
      <td data-label="Application">
        <div>
          <span className="cell-title">{applicationTitle(app)}</span>
          <span className="cell-subtitle">{applicationByline(app)}</span>
        </div>
      </td>
      <td data-label="Scopes">
        {/* SC-09: what the application can still do for the user. */}
        {app.scopes.length > 0 ? app.scopes.join(', ') : <span className="muted">None</span>}
      </td>
      <td data-label="First authorized">
        <Time value={app.first_authorized_at} />
      </td>
      <td data-label="Last used">
        {/* TR-15: when, from where and with what its tokens were last used. */}
        <LastUsed at={app.last_used_at} ip={app.last_used_ip} userAgent={app.last_used_user_agent} now={now} />
      </td>
      <td data-label="Active sign-ins">{app.active_grants}</td>
      <td data-label="" className="cell-actions">
        <RowActionButton
          action="Revoke access"
          target={`for ${applicationTitle(app)}`}
          variant="danger"
          data-row-action={REVOKE_ACTION}
          onClick={onRevoke}
        />
      </td>
    </tr>
  );
}
