import { useEffect, useId, useRef, type ReactNode, type SyntheticEvent } from 'react';
import styles from './dialog.module.css';
import { pageHeading } from './page-header.tsx';

interface DialogProps {
  open: boolean;
  title: string;
  /** The user dismissed the dialog: Escape or the close button. */
  onClose: () => void;
  children: ReactNode;
  /** `alertdialog` for confirmations of destructive actions. */
  role?: 'dialog' | 'alertdialog';
  /** The id of the element that describes the dialog (its question, for a confirmation). */
  describedBy?: string;
}

/**
 * A modal on the native `<dialog>` element: `showModal()` makes the rest of the page inert,
 * so focus stays inside and Escape closes it. Focus starts on the element marked
 * `data-autofocus` (the first field, or the safe choice of a confirmation) and returns to the
 * control that opened the dialog when it closes (WAI-ARIA APG dialog pattern). The content
 * exists only while the dialog is open, so a secret shown inside is gone once it closes.
 */
export function Dialog({ open, title, onClose, children, role = 'dialog', describedBy }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!open || !dialog) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    return () => {
      if (dialog.open) dialog.close();
      // A dialog opened with nothing focused (reopened after sign-in, AX-11), or whose opener is
      // gone (a rolled token's row loses its Roll button, AX-03), hands focus to the page's
      // heading rather than leaving it on <body> (unless a dialog around it already placed it).
      if (opener !== null && opener !== document.body && opener.isConnected) opener.focus();
      else if (document.activeElement === null || document.activeElement === document.body) pageHeading()?.focus();
    };
  }, [open]);

  if (!open) return null;

  function handleCancel(event: SyntheticEvent<HTMLDialogElement>): void {
    // Escape: React state decides whether the dialog is open, not the browser.
    event.preventDefault();
    // React passes a nested dialog's `cancel` up to this one; Escape closes the top one only (AX-10).
    if (event.target !== event.currentTarget) return;
    onClose();
  }

  return (
    <dialog
      ref={ref}
      className={styles.dialog}
      role={role === 'alertdialog' ? 'alertdialog' : undefined}
      aria-modal="true"
      aria-labelledby={titleId}
      aria-describedby={describedBy}
      onCancel={handleCancel}
    >
      <div className={styles.header}>
        <h2 id={titleId} className={styles.title}>
          {title}
        </h2>
        <button type="button" className={styles.close} aria-label="Close" onClick={onClose}>
          <span aria-hidden="true">×</span>
        </button>
      </div>
      <div className={styles.body}>{children}</div>
    </dialog>
  );
}
