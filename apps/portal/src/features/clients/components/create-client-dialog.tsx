import { useId, useRef, useState } from 'react';
import { CreateDialog, CreateForm } from '../../../components/create-dialog.tsx';
import { RevealedSecret } from '../../../components/revealed-secret.tsx';
import { useDialogDraft, useRestoredDraft, type RestoredDraft } from '../../../lib/dialog-draft.ts';
import { useFieldErrors } from '../../../lib/use-field-errors.ts';
import { useCreateClient, type CreatedClient } from '../api/create-client.ts';
import { ID_TOKEN_SIGNED_RESPONSE_ALGS, type IdTokenSignedResponseAlg } from '@latchkey/contracts';
import { ClientNameField, DeviceGrantField, IdTokenAlgField, UrlField } from './client-fields.tsx';
import { validateClientForm } from '../validation/client-form.ts';

/** The request fields a server refusal may name (`validation_failed`), and where each is shown. */
const SERVER_FIELDS = {
  name: 'name',
  redirect_uri: 'redirectUri',
  post_logout_redirect_uri: 'postLogoutRedirectUri',
  id_token_signed_response_alg: 'idTokenAlg',
} as const;

/** AX-11: the identity of this dialog's draft, kept when the session ends while it is open. */
export const CREATE_CLIENT_DRAFT = 'create-client';

/**
 * New client → Client name, Public client (no secret), Redirect URL, the device flow (DV-25) → Create client → the client
 * ID and secret, shown once; a public client's ID alone (PC-01). Render it only while open:
 * closing unmounts it, and the secret goes with it.
 */
export function CreateClientDialog({ onClose }: { onClose: () => void }) {
  const draft = useRestoredDraft(CREATE_CLIENT_DRAFT);
  return (
    <CreateDialog<CreatedClient>
      title="New client"
      createdTitle="Client created"
      onClose={onClose}
      shownOnce={(created) =>
        created.clientSecret === undefined ? undefined : { value: created.clientSecret, noun: 'secret' }
      }
      restored={draft !== undefined}
      renderForm={(step) => <ClientForm draft={draft} {...step} />}
      warning={(created) =>
        created.clientSecret === undefined
          ? {
              tone: 'info',
              title: 'This client has no secret',
              body: (
                <>
                  It is a public client: your app sends its client ID alone, and must use PKCE (S256) when it signs
                  people in. Latchkey refuses it otherwise.
                </>
              ),
            }
          : {
              title: 'Copy the client secret now',
              body: (
                <>
                  You will not see this secret again. Keep it on your application’s server, never in a browser or a
                  mobile app. If you lose it, generate a new one on the client’s page.
                </>
              ),
            }
      }
      renderCreated={(created) => (
        <>
          <p>
            <strong>{created.client.name}</strong> is registered with the redirect URL{' '}
            <code className="break">{created.client.redirect_uri}</code>.
          </p>
          <RevealedSecret label="Client ID" value={created.client.client_id} copyLabel="Copy client ID" />
          {created.clientSecret === undefined ? null : (
            <RevealedSecret label="Client secret" value={created.clientSecret} />
          )}
        </>
      )}
    />
  );
}

function ClientForm({
  draft,
  onCreated,
  onCancel,
}: {
  draft: RestoredDraft | undefined;
  onCreated: (created: CreatedClient) => void;
  onCancel: () => void;
}) {
  const [name, setName] = useState(() => draft?.text('name', '') ?? '');
  const [redirectUri, setRedirectUri] = useState(() => draft?.text('redirectUri', '') ?? '');
  const [postLogoutRedirectUri, setPostLogoutRedirectUri] = useState(
    () => draft?.text('postLogoutRedirectUri', '') ?? '',
  );
  const [isPublic, setPublic] = useState(() => draft?.flag('public', false) ?? false);
  const [idTokenAlg, setIdTokenAlg] = useState<IdTokenSignedResponseAlg>(
    () => draft?.oneOf('idTokenAlg', ID_TOKEN_SIGNED_RESPONSE_ALGS, 'RS256') ?? 'RS256',
  );
  const [deviceGrant, setDeviceGrant] = useState(() => draft?.flag('deviceGrant', false) ?? false);
  // AX-11: what is typed here (never the secret, which only exists once created) outlives a sign-in.
  useDialogDraft(CREATE_CLIENT_DRAFT, {
    name,
    redirectUri,
    postLogoutRedirectUri,
    public: isPublic,
    idTokenAlg,
    deviceGrant,
  });
  const publicHintId = useId();
  const nameRef = useRef<HTMLInputElement>(null);
  const redirectUriRef = useRef<HTMLInputElement>(null);
  const postLogoutRedirectUriRef = useRef<HTMLInputElement>(null);
  const idTokenAlgRef = useRef<HTMLSelectElement>(null);
  const fieldErrors = useFieldErrors({
    fields: ['name', 'redirectUri', 'postLogoutRedirectUri', 'idTokenAlg'],
    serverFields: SERVER_FIELDS,
    focus: (field) =>
      ({
        name: nameRef,
        redirectUri: redirectUriRef,
        postLogoutRedirectUri: postLogoutRedirectUriRef,
        idTokenAlg: idTokenAlgRef,
      })[field].current?.focus(),
  });
  const { errors } = fieldErrors;
  const createClient = useCreateClient({ onCreated });

  function submit(): void {
    if (fieldErrors.show(validateClientForm({ name, redirectUri, postLogoutRedirectUri, public: isPublic }))) return;
    createClient.mutate(
      {
        name: name.trim(),
        redirectUri: redirectUri.trim(),
        postLogoutRedirectUri: postLogoutRedirectUri.trim(),
        public: isPublic,
        // OI-20: the server's default (RS256) is left out, like `public: false`.
        ...(idTokenAlg !== 'RS256' && { idTokenAlg }),
        deviceGrant,
      },
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
      <ClientNameField
        value={name}
        error={errors.name}
        ref={nameRef}
        onChange={(value) => {
          setName(value);
          fieldErrors.clear('name');
        }}
      />
      <div>
        <label className="choice">
          <input
            type="checkbox"
            name="public"
            checked={isPublic}
            aria-describedby={publicHintId}
            onChange={(event) => {
              setPublic(event.target.checked);
              fieldErrors.clear('redirectUri');
            }}
          />
          <span>Public client (no secret)</span>
        </label>
        <p id={publicHintId} className="field__hint">
          For an app that runs in a browser, on a phone or desktop, or on the command line: it cannot keep a secret, so
          it signs people in with PKCE instead. Leave it unticked for an app with its own server.
        </p>
      </div>
      <UrlField
        label="Redirect URL"
        name="redirect_uri"
        hint={
          isPublic
            ? 'Where people return after approving: https, http://127.0.0.1 (any port) for a desktop or command-line app, or your app’s own scheme such as com.example.app:/callback.'
            : 'Where people return after approving, for example https://app.example.com/callback. Use https, or http for localhost.'
        }
        value={redirectUri}
        error={errors.redirectUri}
        ref={redirectUriRef}
        onChange={(value) => {
          setRedirectUri(value);
          fieldErrors.clear('redirectUri');
        }}
      />
      <UrlField
        label="Post-logout redirect URL (optional)"
        name="post_logout_redirect_uri"
        hint="Where people return after your application signs them out of Latchkey, for example https://app.example.com/signed-out."
        value={postLogoutRedirectUri}
        error={errors.postLogoutRedirectUri}
        ref={postLogoutRedirectUriRef}
        onChange={(value) => {
          setPostLogoutRedirectUri(value);
          fieldErrors.clear('postLogoutRedirectUri');
        }}
      />
      <DeviceGrantField checked={deviceGrant} onChange={setDeviceGrant} />
      <IdTokenAlgField
        value={idTokenAlg}
        error={errors.idTokenAlg}
        ref={idTokenAlgRef}
        onChange={(value) => {
          setIdTokenAlg(value);
          fieldErrors.clear('idTokenAlg');
        }}
      />
    </CreateForm>
  );
}
