import { useId, useState } from 'react';
import { MAX_CLIENT_SECRETS } from '@latchkey/contracts';
import { Button } from '../../../components/button.tsx';
import { DataTable } from '../../../components/data-table.tsx';
import { EmptyState, ErrorState, LoadingState } from '../../../components/query-states.tsx';
import { RevokeDialog } from '../../../components/revoke-dialog.tsx';
import { RowActionButton } from '../../../components/row-action-button.tsx';
import { Time } from '../../../components/time.tsx';
import { REVOKE_ACTION, useFocusAfterRevoke } from '../../../components/use-focus-after-revoke.ts';
import { useDeleteClientSecret } from '../api/delete-client-secret.ts';
import type { OAuthClient } from '../api/get-clients.ts';
import { useClientSecrets, type ClientSecret } from '../api/get-client-secrets.ts';
import { GenerateSecretDialog } from './generate-secret-dialog.tsx';

/**
 * A confidential client's secrets (SR-05): each by its last four characters, with Generate a
 * new secret (SR-01, at most MAX_CLIENT_SECRETS: SR-02) and Delete (SR-04, never the last one;
 * "Delete secret ending in aBcD", AX-02).
 * A revoked client's are listed without either. Once one is deleted, focus moves to the next
 * secret's Delete, or to the section's heading (`headingId`) when none is left to delete (AX-03).
 */
export function ClientSecrets({ client, headingId }: { client: OAuthClient; headingId: string }) {
  const secrets = useClientSecrets(client.id);
  const remove = useDeleteClientSecret(client.id);
  const [generating, setGenerating] = useState(false);
  const [deleting, setDeleting] = useState<ClientSecret | null>(null);
  const limitId = useId();
  const { listRef, revoked } = useFocusAfterRevoke(() => document.getElementById(headingId));
  const active = client.status === 'active';

  if (secrets.data === undefined) {
    return secrets.isError ? (
      <ErrorState
        title="Could not load this client’s secrets"
        error={secrets.error}
        onRetry={() => void secrets.refetch()}
      />
    ) : (
      <LoadingState label="Loading secrets…" />
    );
  }
  const list = secrets.data;
  const full = list.length >= MAX_CLIENT_SECRETS;
  return (
    <>
      <p className="page-header__description">
        {active
          ? `Your app proves it is this client with a secret. To replace one without downtime, generate a new secret, give it to your app, then delete the old one. A client has at most ${MAX_CLIENT_SECRETS}.`
          : 'This client is revoked: its secrets no longer work.'}
      </p>
      {active ? (
        <div className="stack">
          <div>
            <Button
              variant="primary"
              disabled={full}
              aria-describedby={full ? limitId : undefined}
              onClick={() => setGenerating(true)}
            >
              Generate a new secret
            </Button>
          </div>
          {full ? (
            <p id={limitId} className="field__hint">
              This client already has {MAX_CLIENT_SECRETS} secrets, the most it may have. Delete the one your app no
              longer uses to generate another.
            </p>
          ) : null}
        </div>
      ) : null}
      {list.length === 0 ? (
        <EmptyState title="No secret in use">Every secret of this client has expired. Generate a new one.</EmptyState>
      ) : (
        <DataTable ref={listRef} caption="Client secrets" columns={['Secret', 'Created', 'Expires', 'Last used', '']}>
          {list.map((secret) => (
            <SecretRow
              key={secret.id}
              secret={secret}
              deletable={active && list.length > 1}
              onDelete={() => {
                remove.reset(); // a failure shown for another secret does not belong to this one
                setDeleting(secret);
              }}
            />
          ))}
        </DataTable>
      )}
      {active && list.length === 1 ? (
        <p className="field__hint">
          A client keeps at least one secret, so this one cannot be deleted. To replace it, generate a new secret first.
        </p>
      ) : null}
      {generating ? (
        <GenerateSecretDialog clientId={client.id} current={list} onClose={() => setGenerating(false)} />
      ) : null}
      {deleting ? (
        <RevokeDialog
          title="Delete this secret?"
          id={deleting.id}
          revoke={remove}
          confirmLabel="Delete"
          pendingLabel="Deleting…"
          revokedMessage={`Deleted the secret ending in ${deleting.last4}.`}
          onRevoked={() => revoked(deleting.id)}
          onClose={() => setDeleting(null)}
        >
          <p>
            The secret ending in <code>{deleting.last4}</code> stops working at once: an app still using it is refused (
            <code>invalid_client</code>) from its next request. Make sure your app uses the other secret first.
          </p>
        </RevokeDialog>
      ) : null}
    </>
  );
}

function SecretRow({
  secret,
  deletable,
  onDelete,
}: {
  secret: ClientSecret;
  deletable: boolean;
  onDelete: () => void;
}) {
  return (
    <tr data-row-key={secret.id}>
      <td data-label="Secret">
        <code>
          <span className="visually-hidden">Secret ending in </span>
          <span aria-hidden="true">…</span>
          {secret.last4}
        </code>
      </td>
      <td data-label="Created">
        <Time value={secret.created_at} />
      </td>
      <td data-label="Expires">
        {secret.expires_at ? <Time value={secret.expires_at} withTime /> : <span className="muted">Never</span>}
      </td>
      <td data-label="Last used">
        {secret.last_used_at ? <Time value={secret.last_used_at} /> : <span className="muted">Never</span>}
      </td>
      <td data-label="" className="cell-actions">
        {deletable ? (
          <RowActionButton
            action="Delete"
            target={`secret ending in ${secret.last4}`}
            variant="danger"
            data-row-action={REVOKE_ACTION}
            onClick={onDelete}
          />
        ) : null}
      </td>
    </tr>
  );
}
