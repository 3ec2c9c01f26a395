import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { showToast } from '../../../lib/toasts.ts';
import type { AccessToken } from '../api/get-tokens.ts';
import { useRevokeToken } from '../api/revoke-token.ts';

export function RevokeTokenDialog({ token, onClose }: { token: AccessToken; onClose: () => void }) {
  const revoke = useRevokeToken();
  function confirm(): void {
    revoke.mutate(token.id, {
      onSuccess: () => {
        showToast({ tone: 'success', message: `Revoked the token “${token.name}”.` });
        onClose();
      },
    });
  }
  return (
    <ConfirmDialog
      open
      title="Revoke this token?"
      confirmLabel="Revoke"
      pendingLabel="Revoking…"
      pending={revoke.isPending}
      error={revoke.error ? errorMessage(revoke.error) : undefined}
      onConfirm={confirm}
      onClose={onClose}
    >
      <p>
        <strong>{token.name}</strong> (ending in <code>{token.last4}</code>) stops working immediately: the API refuses
        it from the next request on.
        {token.kind === 'oauth' ? ' The application that holds it will have to ask you to sign in again.' : null}
      </p>
      <p>This cannot be undone.</p>
    </ConfirmDialog>
  );
}
