import { useRef, useState } from 'react';
import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { Badge } from '../../../components/badge.tsx';
import { BreakableText } from '../../../components/breakable-text.tsx';
import { CopyButton } from '../../../components/copy-button.tsx';
import { DataTable } from '../../../components/data-table.tsx';
import { pageHeading } from '../../../components/page-header.tsx';
import { EmptyState, ErrorState, LoadingState } from '../../../components/query-states.tsx';
import { RevokeDialog } from '../../../components/revoke-dialog.tsx';
import { RowActionButton } from '../../../components/row-action-button.tsx';
import { Time } from '../../../components/time.tsx';
import { REVOKE_ACTION, useFocusAfterRevoke } from '../../../components/use-focus-after-revoke.ts';
import { formatDateTime } from '../../../lib/format-date.ts';
import { useClients, type OAuthClient } from '../api/get-clients.ts';
import { useRevokeClient } from '../api/revoke-client.ts';

/**
 * The user's OAuth clients: loading, error, empty, or the list with Revoke on active ones,
 * named for the client ("Revoke client Weather Widget", AX-02). A revoked client stays listed;
 * focus moves to the next client's Revoke, or the page's heading when no other is active (AX-03).
 * Client IDs and redirect URLs wrap at / . - _ (AX-12).
 */
export function ClientsList() {
  const clients = useClients();
  const revoke = useRevokeClient();
  const [revoking, setRevoking] = useState<OAuthClient | null>(null);
  const emptyTitle = useRef<HTMLParagraphElement>(null);
  const { listRef, revoked } = useFocusAfterRevoke(() => emptyTitle.current ?? pageHeading());

  function openRevoke(client: OAuthClient): void {
    revoke.reset(); // a failure shown for another client does not belong to this one
    setRevoking(client);
  }

  if (clients.data === undefined) {
    return clients.isError ? (
      <ErrorState
        title="Could not load your API clients"
        error={clients.error}
        onRetry={() => void clients.refetch()}
      />
    ) : (
      <LoadingState label="Loading API clients…" />
    );
  }
  if (clients.data.length === 0) {
    return (
      <EmptyState ref={emptyTitle} title="No API clients yet">
        Register a client to let an application sign people in with Latchkey and call the API on their behalf.
      </EmptyState>
    );
  }
  return (
    <>
      <DataTable
        ref={listRef}
        caption="API clients"
        columns={['Name', 'Client ID', 'Redirect URL', 'Created', 'Status', '']}
      >
        {clients.data.map((client) => (
          <ClientRow key={client.id} client={client} onRevoke={() => openRevoke(client)} />
        ))}
      </DataTable>
      {revoking ? (
        <RevokeDialog
          title="Revoke this client?"
          id={revoking.id}
          revoke={revoke}
          revokedMessage={`Revoked the client “${revoking.name}”.`}
          onRevoked={() => revoked(revoking.id)}
          onClose={() => setRevoking(null)}
        >
          <p>
            <strong>{revoking.name}</strong> will no longer be able to sign anyone in, and every token it has issued
            stops working immediately, for every user.
          </p>
        </RevokeDialog>
      ) : null}
    </>
  );
}

function ClientRow({ client, onRevoke }: { client: OAuthClient; onRevoke: () => void }) {
  const revoked = client.status === 'revoked';
  return (
    <tr data-row-key={client.id} data-muted={revoked}>
      <td data-label="Name">
        <Link className="cell-title" to={paths.client.href(client.id)}>
          {client.name}
        </Link>
        {/* PC-01: a public client has no secret; its page says more. */}
        {client.public ? <Badge tone="neutral">Public</Badge> : null}
      </td>
      <td data-label="Client ID">
        <span className="inline-copy">
          <code>
            <BreakableText text={client.client_id} />
          </code>
          <CopyButton value={client.client_id} label={`Copy client ID of ${client.name}`} />
        </span>
      </td>
      <td data-label="Redirect URL">
        <code>
          <BreakableText text={client.redirect_uri} />
        </code>
        {client.redirect_uris.length > 1 ? (
          <span className="cell-subtitle">and {client.redirect_uris.length - 1} more</span>
        ) : null}
      </td>
      <td data-label="Created">
        <Time value={client.created_at} />
      </td>
      <td data-label="Status">
        {revoked ? (
          <span title={client.revoked_at ? `Revoked ${formatDateTime(client.revoked_at)}` : undefined}>
            <Badge tone="neutral">Revoked</Badge>
          </span>
        ) : (
          <Badge tone="success">Active</Badge>
        )}
      </td>
      <td data-label="" className="cell-actions">
        {revoked ? null : (
          <RowActionButton
            action="Revoke"
            target={`client ${client.name}`}
            variant="danger"
            data-row-action={REVOKE_ACTION}
            onClick={onRevoke}
          />
        )}
      </td>
    </tr>
  );
}
