import { useEffect, useId, useRef, useState, type ClipboardEvent, type FormEvent, type ReactNode } from 'react';
import { Alert } from './alert.tsx';
import { Button } from './button.tsx';
import { CopiedContext } from './copy-button.tsx';
import { Dialog } from './dialog.tsx';
import { DraftRestoredAlert } from './draft-restored-alert.tsx';

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
  /**
   * AX-10: the value shown once, and what to call it in the question asked when the dialog is
   * closed (Escape, ×) before it was copied; nothing when there is none (a public client).
   */
  shownOnce: (created: T) => ShownOnceValue | undefined;
  /** AX-11: the form was filled again from what was typed before the session ended. */
  restored?: boolean;
}

export interface ShownOnceValue {
  value: string;
  noun: 'secret' | 'token';
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
  shownOnce,
  restored = false,
}: CreateDialogProps<T>) {
  const [created, setCreated] = useState<{ value: T } | null>(null);
  const [copied, setCopied] = useState(false);
  const [asking, setAsking] = useState(false);
  const noticeId = useId();
  const secret = created ? shownOnce(created.value) : undefined;

  /** AX-10: Escape or × before the secret was copied asks first; Done (an explicit choice) never does. */
  function requestClose(): void {
    if (secret && !copied) setAsking(true);
    else onClose();
  }
  function noteCopy(value: string): void {
    if (value === secret?.value) setCopied(true);
  }

  return (
    <Dialog
      open
      title={created ? createdTitle : title}
      onClose={requestClose}
      describedBy={!created && restored ? noticeId : undefined}
    >
      {created ? (
        <CopiedContext value={noteCopy}>
          <ShownOnce
            warning={typeof warning === 'function' ? warning(created.value) : warning}
            onDone={onClose}
            onCopy={(event) => {
              if (secret && copiedBySelection(event, secret.value)) setCopied(true);
            }}
          >
            {renderCreated(created.value)}
          </ShownOnce>
        </CopiedContext>
      ) : (
        <>
          {restored ? <DraftRestoredAlert id={noticeId} outcome="created" /> : null}
          {renderForm({ onCreated: (value) => setCreated({ value }), onCancel: onClose })}
        </>
      )}
      {asking && secret ? (
        <CloseUncopiedDialog noun={secret.noun} onGoBack={() => setAsking(false)} onCloseAnyway={onClose} />
      ) : null}
    </Dialog>
  );
}

/** The user selected the value and copied it with the keyboard or the context menu (not with Copy). */
function copiedBySelection(event: ClipboardEvent<HTMLElement>, value: string): boolean {
  const target = event.target;
  if (target instanceof HTMLInputElement) {
    return target.value.slice(target.selectionStart ?? 0, target.selectionEnd ?? 0) === value;
  }
  return document.getSelection()?.toString().includes(value) ?? false;
}

function ShownOnce({
  warning,
  onDone,
  onCopy,
  children,
}: {
  warning: Notice;
  onDone: () => void;
  onCopy: (event: ClipboardEvent<HTMLDivElement>) => void;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDivElement>(null);
  // The form that had focus is gone: start reading at the warning.
  useEffect(() => ref.current?.focus(), []);
  return (
    <div className="stack" onCopy={onCopy}>
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

/**
 * AX-10: the question before a secret that was never copied is gone for good. A nested
 * alertdialog: focus starts on Go back, the safe choice, and returns to where it was (the ×,
 * the value) when it closes; Escape here means Go back.
 */
function CloseUncopiedDialog({
  noun,
  onGoBack,
  onCloseAnyway,
}: {
  noun: ShownOnceValue['noun'];
  onGoBack: () => void;
  onCloseAnyway: () => void;
}) {
  const descriptionId = useId();
  return (
    <Dialog
      open
      role="alertdialog"
      title={`You have not copied the ${noun}. Close anyway?`}
      describedBy={descriptionId}
      onClose={onGoBack}
    >
      <p id={descriptionId}>This is the only time it is shown: once closed, nobody can show it to you again.</p>
      <div className="form-actions">
        <Button onClick={onGoBack} data-autofocus>
          Go back
        </Button>
        <Button variant="danger" onClick={onCloseAnyway}>
          Close anyway
        </Button>
      </div>
    </Dialog>
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
