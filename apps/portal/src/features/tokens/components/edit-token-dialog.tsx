import { useId, useRef, useState, type FormEvent } from 'react';
import { Alert } from '../../../components/alert.tsx';
import { Button } from '../../../components/button.tsx';
import { Dialog } from '../../../components/dialog.tsx';
import { DraftRestoredAlert } from '../../../components/draft-restored-alert.tsx';
import { useDialogDraft, useRestoredDraft } from '../../../lib/dialog-draft.ts';
import { showToast } from '../../../lib/toasts.ts';
import { useFieldErrors } from '../../../lib/use-field-errors.ts';
import type { AccessToken } from '../api/get-tokens.ts';
import { useUpdateToken } from '../api/update-token.ts';
import { validateTokenDescription, validateTokenName } from '../validation/token-details.ts';
import { TokenDescriptionField, TokenNameField } from './token-fields.tsx';

const FIELDS = ['name', 'description'] as const;

/** AX-11: the identity of this dialog's draft for one token. */
export const editTokenDraft = (id: string) => `edit-token:${id}`;

/** The request fields a server refusal may name (`validation_failed`), and where each is shown. */
const SERVER_FIELDS = { name: 'name', description: 'description' } as const;

/**
 * TR-13: Edit token → Token name, Description → Save; the list shows them at once. A refusal is
 * shown under the field it names, as in Generate token. The token's value, scopes and expiry
 * do not change here (TR-02). Render it only while open.
 */
export function EditTokenDialog({ token, onClose }: { token: AccessToken; onClose: () => void }) {
  const draft = useRestoredDraft(editTokenDraft(token.id));
  const noticeId = useId();
  const [name, setName] = useState(() => draft?.text('name', token.name) ?? token.name);
  const [description, setDescription] = useState(
    () => draft?.text('description', token.description ?? '') ?? token.description ?? '',
  );
  useDialogDraft(editTokenDraft(token.id), { name, description });
  const nameRef = useRef<HTMLInputElement>(null);
  const descriptionRef = useRef<HTMLTextAreaElement>(null);
  const fieldErrors = useFieldErrors({
    fields: FIELDS,
    serverFields: SERVER_FIELDS,
    focus: (field) => (field === 'name' ? nameRef : descriptionRef).current?.focus(),
  });
  const { errors } = fieldErrors;
  const update = useUpdateToken(token.id);
  const generalError = fieldErrors.generalError(update.error);

  function submit(event: FormEvent<HTMLFormElement>): void {
    event.preventDefault();
    const found = { name: validateTokenName(name), description: validateTokenDescription(description) };
    if (fieldErrors.show(found)) return;
    update.mutate(
      { name: name.trim(), description: description.trim() },
      {
        onSuccess: (saved) => {
          showToast({ tone: 'success', message: `Saved the token “${saved.name}”.` });
          onClose();
        },
        onError: fieldErrors.showServerError,
      },
    );
  }

  return (
    <Dialog open title="Edit token" onClose={onClose} describedBy={draft ? noticeId : undefined}>
      <form className="stack" onSubmit={submit} noValidate>
        {draft ? <DraftRestoredAlert id={noticeId} outcome="saved" /> : null}
        <TokenNameField
          value={name}
          error={errors.name}
          ref={nameRef}
          onChange={(value) => {
            setName(value);
            fieldErrors.clear('name');
          }}
        />
        <TokenDescriptionField
          value={description}
          error={errors.description}
          ref={descriptionRef}
          onChange={(value) => {
            setDescription(value);
            fieldErrors.clear('description');
          }}
        />
        {generalError ? <Alert tone="error">{generalError}</Alert> : null}
        <div className="form-actions">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" disabled={update.isPending} aria-busy={update.isPending}>
            Save
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
