import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Alert } from '../../../components/alert.tsx';
import { Button } from '../../../components/button.tsx';
import { Dialog } from '../../../components/dialog.tsx';
import { Field } from '../../../components/field.tsx';
import { RevealedSecret } from '../../../components/revealed-secret.tsx';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';
import { useCreateClient, type CreatedClient } from '../api/create-client.ts';
import { MAX_NAME_LENGTH, validateClientForm, type ClientFormErrors } from '../validation/client-form.ts';

/** The server names the field it refused (`validation_failed`); show it under that field. */
function fieldErrorsFrom(error: unknown): ClientFormErrors {
  if (!(error instanceof ApiError) || !error.field) return {};
  if (error.field === 'name') return { name: error.message };
  if (error.field === 'redirect_uri') return { redirectUri: error.message };
  return {};
}

/**
 * New client → Client name, Redirect URL → Create client → the client ID and secret, shown
 * once. Render it only while open: closing unmounts it, and the secret goes with it.
 */
export function CreateClientDialog({ onClose }: { onClose: () => void }) {
  const [created, setCreated] = useState<CreatedClient | null>(null);
  return (
    <Dialog open title={created ? 'Client created' : 'New client'} onClose={onClose}>
      {created ? <CreatedClientDetails created={created} onDone={onClose} /> : <ClientForm onCreated={setCreated} onCancel={onClose} />}
    </Dialog>
  );
}

function ClientForm({ onCreated, onCancel }: { onCreated: (created: CreatedClient) => void; onCancel: () => void }) {
  const [name, setName] = useState('');
  const [redirectUri, setRedirectUri] = useState('');
  const [errors, setErrors] = useState<ClientFormErrors>({});
  const nameRef = useRef<HTMLInputElement>(null);
  const redirectRef = useRef<HTMLInputElement>(null);
  const createClient = useCreateClient({ onCreated });
  const generalError =
    createClient.error && Object.keys(fieldErrorsFrom(createClient.error)).length === 0 ? errorMessage(createClient.error) : undefined;

  function focusFirstInvalid(found: ClientFormErrors): void {
    if (found.name) nameRef.current?.focus();
    else if (found.redirectUri) redirectRef.current?.focus();
  }

  function submit(event: FormEvent<HTMLFormElement>): void {
    event.preventDefault();
    const found = validateClientForm({ name, redirectUri });
    setErrors(found);
    if (found.name || found.redirectUri) {
      focusFirstInvalid(found);
      return;
    }
    createClient.mutate(
      { name: name.trim(), redirectUri: redirectUri.trim() },
      {
        onError: (error) => {
          const fromServer = fieldErrorsFrom(error);
          setErrors(fromServer);
          focusFirstInvalid(fromServer);
        },
      },
    );
  }

  return (
    <form className="stack" onSubmit={submit} noValidate>
      <Field label="Client name" error={errors.name} hint="Shown to people when your application asks for their approval.">
        {(control) => (
          <input
            {...control}
            ref={nameRef}
            name="name"
            type="text"
            autoComplete="off"
            maxLength={MAX_NAME_LENGTH + 20}
            value={name}
            onChange={(event) => {
              setName(event.target.value);
              setErrors((current) => ({ ...current, name: undefined }));
            }}
            data-autofocus
          />
        )}
      </Field>
      <Field
        label="Redirect URL"
        error={errors.redirectUri}
        hint="Where people return after approving, for example https://app.example.com/callback. Use https, or http for localhost."
      >
        {(control) => (
          <input
            {...control}
            ref={redirectRef}
            name="redirect_uri"
            type="url"
            inputMode="url"
            autoComplete="off"
            spellCheck={false}
            placeholder="https://"
            value={redirectUri}
            onChange={(event) => {
              setRedirectUri(event.target.value);
              setErrors((current) => ({ ...current, redirectUri: undefined }));
            }}
          />
        )}
      </Field>
      {generalError ? <Alert tone="error">{generalError}</Alert> : null}
      <div className="form-actions">
        <Button onClick={onCancel}>Cancel</Button>
        <Button type="submit" variant="primary" disabled={createClient.isPending} aria-busy={createClient.isPending}>
          Create client
        </Button>
      </div>
    </form>
  );
}

function CreatedClientDetails({ created, onDone }: { created: CreatedClient; onDone: () => void }) {
  const ref = useRef<HTMLDivElement>(null);
  // The form that had focus is gone: start reading at the warning.
  useEffect(() => ref.current?.focus(), []);
  return (
    <div className="stack">
      <div ref={ref} tabIndex={-1} className="focus-target">
        <Alert tone="warning" title="Copy the client secret now">
          You will not see this secret again. Keep it on your application’s server, never in a browser or a
          mobile app. If you lose it, revoke this client and register a new one.
        </Alert>
      </div>
      <p>
        <strong>{created.client.name}</strong> is registered with the redirect URL{' '}
        <code className="break">{created.client.redirect_uri}</code>.
      </p>
      <RevealedSecret label="Client ID" value={created.client.client_id} copyLabel="Copy client ID" />
      <RevealedSecret label="Client secret" value={created.clientSecret} />
      <div className="form-actions">
        <Button variant="primary" onClick={onDone}>
          Done
        </Button>
      </div>
    </div>
  );
}
