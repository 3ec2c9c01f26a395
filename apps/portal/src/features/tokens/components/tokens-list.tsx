import { useRef, useState } from 'react';
import { DataTable } from '../../../components/data-table.tsx';
import { pageHeading } from '../../../components/page-header.tsx';
import { EmptyState, ErrorState, LoadingState } from '../../../components/query-states.tsx';
import { RevokeDialog } from '../../../components/revoke-dialog.tsx';
import { useFocusAfterRevoke } from '../../../components/use-focus-after-revoke.ts';
import { usePersonalTokens, type AccessToken } from '../api/get-tokens.ts';
import { useRevokeToken } from '../api/revoke-token.ts';
import { EditTokenDialog } from './edit-token-dialog.tsx';
import { RollTokenDialog } from './roll-token-dialog.tsx';
import { TokenRow, type TokenAction } from './token-row.tsx';

/**
 * The user's personal access tokens: loading, error, empty, or the list with Edit (TR-13),
 * Roll (TR-12) and Revoke on active ones. A revoked token stays listed as Revoked; focus moves to
 * the next token's Revoke, or the page's heading when no other is active (AX-03).
 */
export function TokensList() {
  const tokens = usePersonalTokens();
  const revoke = useRevokeToken();
  const [open, setOpen] = useState<{ action: TokenAction; token: AccessToken } | null>(null);
  const emptyTitle = useRef<HTMLParagraphElement>(null);
  const { listRef, revoked } = useFocusAfterRevoke(() => emptyTitle.current ?? pageHeading());

  function openAction(action: TokenAction, token: AccessToken): void {
    revoke.reset(); // a failure shown for another token does not belong to this one
    setOpen({ action, token });
  }
  const close = () => setOpen(null);

  if (tokens.data === undefined) {
    return tokens.isError ? (
      <ErrorState title="Could not load your API tokens" error={tokens.error} onRetry={() => void tokens.refetch()} />
    ) : (
      <LoadingState label="Loading API tokens…" />
    );
  }
  if (tokens.data.length === 0) {
    return (
      <EmptyState ref={emptyTitle} title="No API tokens yet">
        Generate a personal access token to call the GraphQL API from scripts and CI, with{' '}
        <code>Authorization: Bearer</code>.
      </EmptyState>
    );
  }
  return (
    <>
      <DataTable
        ref={listRef}
        caption="API tokens"
        columns={['Name', 'Token', 'Scopes', 'Created', 'Expires', 'Last used', 'Status', '']}
      >
        {tokens.data.map((token) => (
          // "Expires soon" and "2 days ago" are measured from when the list was fetched: stable across renders, fresh on each refetch.
          <TokenRow key={token.id} token={token} now={tokens.dataUpdatedAt} onAction={openAction} />
        ))}
      </DataTable>
      {open?.action === 'edit' ? <EditTokenDialog token={open.token} onClose={close} /> : null}
      {open?.action === 'roll' ? <RollTokenDialog token={open.token} onClose={close} /> : null}
      {open?.action === 'revoke' ? (
        <RevokeDialog
          title="Revoke this token?"
          id={open.token.id}
          revoke={revoke}
          revokedMessage={`Revoked the token “${open.token.name}”.`}
          onRevoked={() => revoked(open.token.id)}
          onClose={close}
        >
          <p>
            <strong>{open.token.name}</strong> (ending in <code>{open.token.last4}</code>) stops working immediately:
            the API refuses it from the next request on.
          </p>
        </RevokeDialog>
      ) : null}
    </>
  );
}
