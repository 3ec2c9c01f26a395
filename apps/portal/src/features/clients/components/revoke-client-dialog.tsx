import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { showToast } from '../../../lib/toasts.ts';
import type { OAuthClient } from '../api/get-clients.ts';
import { useRevokeClient } from '../api/revoke-client.ts';

export function RevokeClientDialog({ client, onClose }: { client: OAuthClient; onClose: () => void }) {
  const revoke = useRevokeClient();
  function confirm(): void {
    revoke.mutate(client.id, {
      onSuccess: () => {
        showToast({ tone: 'success', message: `Revoked the client “${client.name}”.` });
        onClose();
      },
    });
  }
  return (
    <ConfirmDialog
      open
      title="Revoke this client?"
      confirmLabel="Revoke"
      pendingLabel="Revoking…"
      pending={revoke.isPending}
      error={revoke.error ? errorMessage(revoke.error) : undefined}
      onConfirm={confirm}
      onClose={onClose}
    >
      <p>
        <strong>{client.name}</strong> will no longer be able to sign anyone in, and every token it has issued stops
        working immediately, for every user.
      </p>
      <p>This cannot be undone.</p>
    </ConfirmDialog>
  );
}
