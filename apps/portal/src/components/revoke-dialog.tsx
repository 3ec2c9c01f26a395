import { useId, type ReactNode } from 'react';
import { errorMessage } from '../lib/api-client.ts';
import { showToast } from '../lib/toasts.ts';
import { Alert } from './alert.tsx';
import { Button } from './button.tsx';
import { Dialog } from './dialog.tsx';

/** What RevokeDialog needs of a feature's revoke mutation (useRevokeClient, useRevokeToken): its variable is the id. */
export interface RevokeMutation {
  mutate: (id: string, options: { onSuccess: () => void }) => void;
  isPending: boolean;
  error: unknown;
}

interface RevokeDialogProps {
  /** "Revoke this client?" */
  title: string;
  /** The id the mutation revokes. */
  id: string;
  revoke: RevokeMutation;
  /** The confirming button's label; "Revoke" unless the row's action says more ("Revoke access", "Delete"). */
  confirmLabel?: string;
  /** The same button while the request runs. */
  pendingLabel?: string;
  /** The toast once revoked, naming what was. */
  revokedMessage: string;
  /** Once revoked, before the dialog closes: where the list moves focus (AX-03, useFocusAfterRevoke). */
  onRevoked?: () => void;
  onClose: () => void;
  /** What stops working, in a sentence or two; "This cannot be undone." follows. */
  children: ReactNode;
}

/**
 * The confirmation before revoking a credential (its button says Revoke). An
 * alertdialog described by its consequences; focus starts on Cancel, the safe choice. On
 * success it closes with a toast, and the feature's mutation refreshes the list behind it; a
 * failure stays inside the dialog. Cancel, Escape and × give focus back to the button that opened
 * it (Dialog); after a revoke, `onRevoked` lets the list choose where it goes instead (AX-03).
 */
export function RevokeDialog({
  title,
  id,
  revoke,
  confirmLabel = 'Revoke',
  pendingLabel = 'Revoking…',
  revokedMessage,
  onRevoked,
  onClose,
  children,
}: RevokeDialogProps) {
  const descriptionId = useId();
  function confirm(): void {
    revoke.mutate(id, {
      onSuccess: () => {
        showToast({ tone: 'success', message: revokedMessage });
        onRevoked?.();
        onClose();
      },
    });
  }
  return (
    <Dialog open title={title} onClose={onClose} role="alertdialog" describedBy={descriptionId}>
      <div id={descriptionId} className="stack">
        {children}
        <p>This cannot be undone.</p>
      </div>
      {revoke.error ? <Alert tone="error">{errorMessage(revoke.error)}</Alert> : null}
      <div className="form-actions">
        <Button onClick={onClose} data-autofocus>
          Cancel
        </Button>
        <Button variant="danger" onClick={confirm} disabled={revoke.isPending} aria-busy={revoke.isPending}>
          {revoke.isPending ? pendingLabel : confirmLabel}
        </Button>
      </div>
    </Dialog>
  );
}
