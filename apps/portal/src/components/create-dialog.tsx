import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Alert } from './alert.tsx';
import { Button } from './button.tsx';
import { Dialog } from './dialog.tsx';

interface Notice {
  title: string;
  body: ReactNode;
  tone?: 'warning' | 'info';
}

interface CreateDialogProps<T> {
  /** The form's title: the words of the button that opened it ("New client"). */
  title: string;
  /** The title once the server has answered ("Client created"). */
  createdTitle: string;
  onClose: () => void;
  /** The form; it hands the server's answer, secret included, to `onCreated`. */
  renderForm: (step: { onCreated: (created: T) => void; onCancel: () => void }) => ReactNode;
  /**
   * Read first once created: the value below is shown this once. A function when it depends on
   * what was created (a public client has no secret to warn about: an `info` note instead).
   */
  warning: Notice | ((created: T) => Notice);
  /** The created credential: its values (RevealedSecret) and how to use it. */
  renderCreated: (created: T) => ReactNode;
}

/**
 * Creating a credential whose secret the server returns once (a client, a token): a form, then
 * the secret with a warning and Done. Render it only while open: closing unmounts it, and the
 * secret, held only in this component's state, goes with it (never in the query
 * cache, the URL or storage).
 */
export function CreateDialog<T>({
  title,
  createdTitle,
  onClose,
  renderForm,
  warning,
  renderCreated,
}: CreateDialogProps<T>) {
  const [created, setCreated] = useState<{ value: T } | null>(null);
  return (
    <Dialog open title={created ? createdTitle : title} onClose={onClose}>
      {created ? (
        <ShownOnce warning={typeof warning === 'function' ? warning(created.value) : warning} onDone={onClose}>
          {renderCreated(created.value)}
        </ShownOnce>
      ) : (
        renderForm({ onCreated: (value) => setCreated({ value }), onCancel: onClose })
      )}
    </Dialog>
  );
}

function ShownOnce({ warning, onDone, children }: { warning: Notice; onDone: () => void; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  // The form that had focus is gone: start reading at the warning.
  useEffect(() => ref.current?.focus(), []);
  return (
    <div className="stack">
      <div ref={ref} tabIndex={-1} className="focus-target">
        <Alert tone={warning.tone ?? 'warning'} title={warning.title}>
          {warning.body}
        </Alert>
      </div>
      {children}
      <div className="form-actions">
        <Button variant="primary" onClick={onDone}>
          Done
        </Button>
      </div>
    </div>
  );
}

interface CreateFormProps {
  /** The submit button, named like the dialog's action ("Create client", "Generate token"). */
  submitLabel: string;
  pending: boolean;
  /** A failure that names no field; field errors are shown by each Field. */
  error: string | undefined;
  onSubmit: () => void;
  onCancel: () => void;
  /** The fields, in order; the first carries `data-autofocus`. */
  children: ReactNode;
}

/**
 * The form step of a CreateDialog: its fields, the error no field owns, Cancel and the submit
 * button. The browser's own validation is off: the fields show the portal's messages, which
 * mirror the server's.
 */
export function CreateForm({ submitLabel, pending, error, onSubmit, onCancel, children }: CreateFormProps) {
  function submit(event: FormEvent<HTMLFormElement>): void {
    event.preventDefault();
    onSubmit();
  }
  return (
    <form className="stack" onSubmit={submit} noValidate>
      {children}
      {error ? <Alert tone="error">{error}</Alert> : null}
      <div className="form-actions">
        <Button onClick={onCancel}>Cancel</Button>
        <Button type="submit" variant="primary" disabled={pending} aria-busy={pending}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
