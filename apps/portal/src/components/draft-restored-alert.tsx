import { Alert } from './alert.tsx';

/**
 * AX-11: shown at the top of a form filled again after the session ended mid-way: the request
 * never reached the server, so the user must submit again. The dialog is described by it, so a
 * screen reader reads it as the dialog opens.
 */
export function DraftRestoredAlert({ id, outcome }: { id: string; outcome: 'created' | 'saved' }) {
  return (
    <div id={id}>
      <Alert tone="warning" title={`Your session ended, so nothing was ${outcome}.`}>
        Your entries are restored; submit again.
      </Alert>
    </div>
  );
}
