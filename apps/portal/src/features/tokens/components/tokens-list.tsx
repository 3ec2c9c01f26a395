import { useId, useState } from 'react';
import { Badge } from '../../../components/badge.tsx';
import { Button } from '../../../components/button.tsx';
import { DataTable } from '../../../components/data-table.tsx';
import { EmptyState, ErrorState, LoadingState } from '../../../components/query-states.tsx';
import { RevokeDialog } from '../../../components/revoke-dialog.tsx';
import { Time } from '../../../components/time.tsx';
import { usePersonalTokens, type AccessToken } from '../api/get-tokens.ts';
import { useRevokeToken } from '../api/revoke-token.ts';
import { isExpiringSoon } from '../expiration/expiration.ts';

const STATUS = {
  active: { label: 'Active', tone: 'success' },
  expired: { label: 'Expired', tone: 'neutral' },
  revoked: { label: 'Revoked', tone: 'neutral' },
} as const;

/**
 * The user's personal access tokens: loading, error, empty, or the list with Revoke on active
 * ones.
 */
export function TokensList() {
  const tokens = usePersonalTokens();
  const revoke = useRevokeToken();
  const [revoking, setRevoking] = useState<AccessToken | null>(null);

  function openRevoke(token: AccessToken): void {
    revoke.reset(); // a failure shown for another token does not belong to this one
    setRevoking(token);
  }

  if (tokens.data === undefined) {
    return tokens.isError ? (
      <ErrorState title="Could not load your API tokens" error={tokens.error} onRetry={() => void tokens.refetch()} />
    ) : (
      <LoadingState label="Loading API tokens…" />
    );
  }
  if (tokens.data.length === 0) {
    return (
      <EmptyState title="No API tokens yet">
        Generate a personal access token to call the GraphQL API from scripts and CI, with{' '}
        <code>Authorization: Bearer</code>.
      </EmptyState>
    );
  }
  return (
    <>
      <DataTable
        caption="API tokens"
        columns={['Name', 'Token', 'Scopes', 'Created', 'Expires', 'Last used', 'Status', '']}
      >
        {tokens.data.map((token) => (
          // "Expires soon" is measured from when the list was fetched: stable across renders, fresh on each refetch.
          <TokenRow
            key={token.id}
            token={token}
            expiringSoon={isExpiringSoon(token, tokens.dataUpdatedAt)}
            onRevoke={() => openRevoke(token)}
          />
        ))}
      </DataTable>
      {revoking ? (
        <RevokeDialog
          title="Revoke this token?"
          id={revoking.id}
          revoke={revoke}
          revokedMessage={`Revoked the token “${revoking.name}”.`}
          onClose={() => setRevoking(null)}
        >
          <p>
            <strong>{revoking.name}</strong> (ending in <code>{revoking.last4}</code>) stops working immediately: the
            API refuses it from the next request on.
          </p>
        </RevokeDialog>
      ) : null}
    </>
  );
}

function TokenRow({
  token,
  expiringSoon,
  onRevoke,
}: {
  token: AccessToken;
  expiringSoon: boolean;
  onRevoke: () => void;
}) {
  const nameId = useId();
  const status = STATUS[token.status];
  return (
    <tr data-muted={token.status !== 'active'} data-highlight={expiringSoon}>
      <td data-label="Name">
        <div>
          <span id={nameId} className="cell-title">
            {token.name}
          </span>
          <span className="cell-subtitle">Personal access token</span>
        </div>
      </td>
      <td data-label="Token">
        <code>
          <span className="visually-hidden">ending in </span>
          <span aria-hidden="true">…</span>
          {token.last4}
        </code>
      </td>
      <td data-label="Scopes">
        {/* SC-07: what the token may do, by the names the API and the CLI use. */}
        {token.scopes.join(', ')}
      </td>
      <td data-label="Created">
        <Time value={token.created_at} />
      </td>
      <td data-label="Expires">
        <span className="cell-with-badge">
          <Time value={token.expires_at} />
          {expiringSoon ? <Badge tone="warning">Expires soon</Badge> : null}
        </span>
      </td>
      <td data-label="Last used">
        {token.last_used_at ? <Time value={token.last_used_at} /> : <span className="muted">Never</span>}
      </td>
      <td data-label="Status">
        <Badge tone={status.tone}>{status.label}</Badge>
      </td>
      <td data-label="" className="cell-actions">
        {token.status === 'active' ? (
          <Button size="small" variant="danger" onClick={onRevoke} aria-describedby={nameId}>
            Revoke
          </Button>
        ) : null}
      </td>
    </tr>
  );
}
