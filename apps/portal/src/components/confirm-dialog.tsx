import { useId, type ReactNode } from 'react';
import { Alert } from './alert.tsx';
import { Button } from './button.tsx';
import { Dialog } from './dialog.tsx';

interface ConfirmDialogProps {
  open: boolean;
  title: string;
  /** What will happen, in a sentence or two. */
  children: ReactNode;
  confirmLabel: string;
  pendingLabel: string;
  pending: boolean;
  error: string | undefined;
  onConfirm: () => void;
  onClose: () => void;
}

/** Asks before a destructive action. Focus starts on Cancel, the safe choice. */
export function ConfirmDialog(props: ConfirmDialogProps) {
  const descriptionId = useId();
  return (
    <Dialog open={props.open} title={props.title} onClose={props.onClose} role="alertdialog" describedBy={descriptionId}>
      <div id={descriptionId} className="stack">
        {props.children}
      </div>
      {props.error ? <Alert tone="error">{props.error}</Alert> : null}
      <div className="form-actions">
        <Button onClick={props.onClose} data-autofocus>
          Cancel
        </Button>
        <Button variant="danger" onClick={props.onConfirm} disabled={props.pending} aria-busy={props.pending}>
          {props.pending ? props.pendingLabel : props.confirmLabel}
        </Button>
      </div>
    </Dialog>
  );
}
