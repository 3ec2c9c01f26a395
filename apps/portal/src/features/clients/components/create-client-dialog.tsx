import { useRef, useState } from 'react';
import { MAX_NAME_LENGTH } from '@latchkey/contracts';
import { CreateDialog, CreateForm } from '../../../components/create-dialog.tsx';
import { Field } from '../../../components/field.tsx';
import { RevealedSecret } from '../../../components/revealed-secret.tsx';
import { useFieldErrors } from '../../../lib/use-field-errors.ts';
import { useCreateClient, type CreatedClient } from '../api/create-client.ts';
import { validateClientForm } from '../validation/client-form.ts';

/** The request fields a server refusal may name (`validation_failed`), and where each is shown. */
const SERVER_FIELDS = {
  name: 'name',
  redirect_uri: 'redirectUri',
  post_logout_redirect_uri: 'postLogoutRedirectUri',
} as const;

/**
 * New client → Client name, Redirect URL → Create client → the client ID and secret, shown
 * once. Render it only while open: closing unmounts it, and the secret goes with it.
 */
export function CreateClientDialog({ onClose }: { onClose: () => void }) {
  return (
    <CreateDialog<CreatedClient>
      title="New client"
      createdTitle="Client created"
      onClose={onClose}
      renderForm={(step) => <ClientForm {...step} />}
      warning={{
        title: 'Copy the client secret now',
        body: (
          <>
            You will not see this secret again. Keep it on your application’s server, never in a browser or a mobile
            app. If you lose it, revoke this client and register a new one.
          </>
        ),
      }}
      renderCreated={(created) => (
        <>
          <p>
            <strong>{created.client.name}</strong> is registered with the redirect URL{' '}
            <code className="break">{created.client.redirect_uri}</code>.
          </p>
          <RevealedSecret label="Client ID" value={created.client.client_id} copyLabel="Copy client ID" />
          <RevealedSecret label="Client secret" value={created.clientSecret} />
        </>
      )}
    />
  );
}

function ClientForm({ onCreated, onCancel }: { onCreated: (created: CreatedClient) => void; onCancel: () => void }) {
  const [name, setName] = useState('');
  const [redirectUri, setRedirectUri] = useState('');
  const [postLogoutRedirectUri, setPostLogoutRedirectUri] = useState('');
  const refs = {
    name: useRef<HTMLInputElement>(null),
    redirectUri: useRef<HTMLInputElement>(null),
    postLogoutRedirectUri: useRef<HTMLInputElement>(null),
  };
  const fieldErrors = useFieldErrors({
    fields: ['name', 'redirectUri', 'postLogoutRedirectUri'],
    serverFields: SERVER_FIELDS,
    focus: (field) => refs[field].current?.focus(),
  });
  const { errors } = fieldErrors;
  const createClient = useCreateClient({ onCreated });

  function submit(): void {
    if (fieldErrors.show(validateClientForm({ name, redirectUri, postLogoutRedirectUri }))) return;
    createClient.mutate(
      { name: name.trim(), redirectUri: redirectUri.trim(), postLogoutRedirectUri: postLogoutRedirectUri.trim() },
      { onError: fieldErrors.showServerError },
    );
  }

  return (
    <CreateForm
      submitLabel="Create client"
      pending={createClient.isPending}
      error={fieldErrors.generalError(createClient.error)}
      onSubmit={submit}
      onCancel={onCancel}
    >
      <Field
        label="Client name"
        error={errors.name}
        hint="Shown to people when your application asks for their approval."
      >
        {(control) => (
          <input
            {...control}
            ref={refs.name}
            name="name"
            type="text"
            autoComplete="off"
            maxLength={MAX_NAME_LENGTH + 20}
            value={name}
            onChange={(event) => {
              setName(event.target.value);
              fieldErrors.clear('name');
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
            ref={refs.redirectUri}
            name="redirect_uri"
            type="url"
            inputMode="url"
            autoComplete="off"
            spellCheck={false}
            placeholder="https://"
            value={redirectUri}
            onChange={(event) => {
              setRedirectUri(event.target.value);
              fieldErrors.clear('redirectUri');
            }}
          />
        )}
      </Field>
      <Field
        label="Post-logout redirect URL (optional)"
        error={errors.postLogoutRedirectUri}
        hint="Where people return after your application signs them out of Latchkey, for example https://app.example.com/signed-out."
      >
        {(control) => (
          <input
            {...control}
            ref={refs.postLogoutRedirectUri}
            name="post_logout_redirect_uri"
            type="url"
            inputMode="url"
            autoComplete="off"
            spellCheck={false}
            placeholder="https://"
            value={postLogoutRedirectUri}
            onChange={(event) => {
              setPostLogoutRedirectUri(event.target.value);
              fieldErrors.clear('postLogoutRedirectUri');
            }}
          />
        )}
      </Field>
    </CreateForm>
  );
}
