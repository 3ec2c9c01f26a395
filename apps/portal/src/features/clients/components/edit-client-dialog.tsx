import { useId, useRef, useState, type FormEvent } from 'react';
import {
  ID_TOKEN_SIGNED_RESPONSE_ALGS,
  MAX_DESCRIPTION_LENGTH,
  MAX_REDIRECT_URIS,
  type IdTokenSignedResponseAlg,
} from '@latchkey/contracts';
import { Alert } from '../../../components/alert.tsx';
import { Button } from '../../../components/button.tsx';
import { Dialog } from '../../../components/dialog.tsx';
import { DraftRestoredAlert } from '../../../components/draft-restored-alert.tsx';
import { Field } from '../../../components/field.tsx';
import { useDialogDraft, useRestoredDraft, type RestoredDraft } from '../../../lib/dialog-draft.ts';
import { showToast } from '../../../lib/toasts.ts';
import { useFieldErrors } from '../../../lib/use-field-errors.ts';
import type { OAuthClient } from '../api/get-clients.ts';
import { useUpdateClient } from '../api/update-client.ts';
import { ClientNameField, DeviceGrantField, IdTokenAlgField, UrlField } from './client-fields.tsx';
import { parseRedirectUrls, validateClientEditForm, type ClientEditInput } from '../validation/client-form.ts';

/** The text fields, and the ID token algorithm select (OI-20). */
type FormField = keyof ClientEditInput | 'idTokenAlg';

const FIELDS: readonly FormField[] = [
  'name',
  'redirectUris',
  'description',
  'homepage',
  'privacyPolicy',
  'terms',
  'postLogoutRedirectUri',
  'idTokenAlg',
];

/** The request fields a server refusal may name (`validation_failed`), and where each is shown. */
const SERVER_FIELDS = {
  name: 'name',
  redirect_uri: 'redirectUris',
  redirect_uris: 'redirectUris',
  description: 'description',
  client_uri: 'homepage',
  policy_uri: 'privacyPolicy',
  tos_uri: 'terms',
  post_logout_redirect_uri: 'postLogoutRedirectUri',
  id_token_signed_response_alg: 'idTokenAlg',
} as const;

/** The optional URL fields, in the order shown: the form's field, the request's, the label. */
const OPTIONAL_URLS: ReadonlyArray<{
  field: 'homepage' | 'privacyPolicy' | 'terms' | 'postLogoutRedirectUri';
  name: string;
  label: string;
  hint?: string;
}> = [
  { field: 'homepage', name: 'client_uri', label: 'Homepage URL (optional)' },
  { field: 'privacyPolicy', name: 'policy_uri', label: 'Privacy policy URL (optional)' },
  { field: 'terms', name: 'tos_uri', label: 'Terms of service URL (optional)' },
  {
    field: 'postLogoutRedirectUri',
    name: 'post_logout_redirect_uri',
    label: 'Post-logout redirect URL (optional)',
    hint: 'Where people return after your application signs them out of Latchkey.',
  },
];

/** AX-11: the identity of this dialog's draft for one client. */
export const editClientDraft = (id: string) => `edit-client:${id}`;

function initialValues(client: OAuthClient, draft: RestoredDraft | undefined): ClientEditInput {
  const saved: ClientEditInput = {
    name: client.name,
    redirectUris: client.redirect_uris.join('\n'),
    postLogoutRedirectUri: client.post_logout_redirect_uri ?? '',
    description: client.description ?? '',
    homepage: client.client_uri ?? '',
    privacyPolicy: client.policy_uri ?? '',
    terms: client.tos_uri ?? '',
  };
  if (!draft) return saved;
  const entries = Object.entries(saved).map(([field, value]) => [field, draft.text(field, value)]);
  return Object.fromEntries(entries) as ClientEditInput;
}

/**
 * Edit client: every field of the client but its secret, checked as the server checks them, and
 * a refusal shown under the field it names (CE-13).
 * Saving takes effect on the application's next sign-in; a redirect URL removed here signs
 * nobody out (CE-07). Render it only while open.
 */
export function EditClientDialog({ client, onClose }: { client: OAuthClient; onClose: () => void }) {
  const draft = useRestoredDraft(editClientDraft(client.id));
  const noticeId = useId();
  const [values, setValues] = useState(() => initialValues(client, draft));
  const [idTokenAlg, setIdTokenAlg] = useState<IdTokenSignedResponseAlg>(
    () =>
      draft?.oneOf('idTokenAlg', ID_TOKEN_SIGNED_RESPONSE_ALGS, client.id_token_signed_response_alg) ??
      client.id_token_signed_response_alg,
  );
  const [deviceGrant, setDeviceGrant] = useState(
    () => draft?.flag('deviceGrant', client.device_grant) ?? client.device_grant,
  );
  // AX-11: the client's settings, never its secret, outlive a sign-in.
  useDialogDraft(editClientDraft(client.id), { ...values, idTokenAlg, deviceGrant });
  const idTokenAlgRef = useRef<HTMLSelectElement>(null);
  const nameRef = useRef<HTMLInputElement>(null);
  const redirectUrisRef = useRef<HTMLTextAreaElement>(null);
  const descriptionRef = useRef<HTMLTextAreaElement>(null);
  const urlRefs = {
    homepage: useRef<HTMLInputElement>(null),
    privacyPolicy: useRef<HTMLInputElement>(null),
    terms: useRef<HTMLInputElement>(null),
    postLogoutRedirectUri: useRef<HTMLInputElement>(null),
  };
  const fieldErrors = useFieldErrors({
    fields: FIELDS,
    serverFields: SERVER_FIELDS,
    focus: (field) =>
      ({
        name: nameRef,
        redirectUris: redirectUrisRef,
        description: descriptionRef,
        idTokenAlg: idTokenAlgRef,
        ...urlRefs,
      })[field].current?.focus(),
  });
  const { errors } = fieldErrors;
  const update = useUpdateClient(client.id);

  function change(field: keyof ClientEditInput, value: string): void {
    setValues((current) => ({ ...current, [field]: value }));
    fieldErrors.clear(field);
  }

  function submit(event: FormEvent<HTMLFormElement>): void {
    event.preventDefault();
    if (fieldErrors.show(validateClientEditForm(values, client.public))) return;
    update.mutate(
      {
        name: values.name.trim(),
        redirectUris: parseRedirectUrls(values.redirectUris),
        postLogoutRedirectUri: values.postLogoutRedirectUri.trim(),
        description: values.description.trim(),
        homepage: values.homepage.trim(),
        privacyPolicy: values.privacyPolicy.trim(),
        terms: values.terms.trim(),
        // OI-20: sent only when changed, like an edit from the API.
        ...(idTokenAlg !== client.id_token_signed_response_alg && { idTokenAlg }),
        // DV-25: likewise sent only when changed.
        ...(deviceGrant !== client.device_grant && { deviceGrant }),
      },
      {
        onSuccess: (saved) => {
          showToast({ tone: 'success', message: `Saved the client “${saved.name}”.` });
          onClose();
        },
        onError: fieldErrors.showServerError,
      },
    );
  }

  return (
    <Dialog open title="Edit client" onClose={onClose} describedBy={draft ? noticeId : undefined}>
      <form className="stack" onSubmit={submit} noValidate>
        {draft ? <DraftRestoredAlert id={noticeId} outcome="saved" /> : null}
        <ClientNameField
          value={values.name}
          error={errors.name}
          ref={nameRef}
          onChange={(value) => change('name', value)}
        />
        <Field
          label="Redirect URLs"
          error={errors.redirectUris}
          hint={`One per line, up to ${MAX_REDIRECT_URIS}: production, staging, http://localhost… Your application must send one of them exactly. Removing one signs nobody out.`}
        >
          {(control) => (
            <textarea
              {...control}
              ref={redirectUrisRef}
              name="redirect_uris"
              rows={3}
              autoComplete="off"
              spellCheck={false}
              value={values.redirectUris}
              onChange={(event) => change('redirectUris', event.target.value)}
            />
          )}
        </Field>
        <Field
          label="Description (optional)"
          error={errors.description}
          hint={`Shown on the approval page, up to ${MAX_DESCRIPTION_LENGTH} characters.`}
        >
          {(control) => (
            <textarea
              {...control}
              ref={descriptionRef}
              name="description"
              rows={2}
              maxLength={MAX_DESCRIPTION_LENGTH + 20}
              value={values.description}
              onChange={(event) => change('description', event.target.value)}
            />
          )}
        </Field>
        {OPTIONAL_URLS.map(({ field, name, label, hint }) => (
          <UrlField
            key={field}
            label={label}
            name={name}
            hint={hint}
            value={values[field]}
            error={errors[field]}
            ref={urlRefs[field]}
            onChange={(value) => change(field, value)}
          />
        ))}
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
        {fieldErrors.generalError(update.error) ? (
          <Alert tone="error">{fieldErrors.generalError(update.error)}</Alert>
        ) : null}
        <div className="form-actions">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" disabled={update.isPending} aria-busy={update.isPending}>
            Save changes
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
