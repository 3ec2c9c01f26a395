import { useState } from 'react';
import type { SecretExpiry } from '@latchkey/contracts';
import { CreateDialog, CreateForm } from '../../../components/create-dialog.tsx';
import { Field } from '../../../components/field.tsx';
import { RevealedSecret } from '../../../components/revealed-secret.tsx';
import { useDialogDraft, useRestoredDraft, type RestoredDraft } from '../../../lib/dialog-draft.ts';
import { Time } from '../../../components/time.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { useCreateClientSecret, type CreatedClientSecret } from '../api/create-client-secret.ts';
import type { ClientSecret } from '../api/get-client-secrets.ts';

/** SR-03: when the secret in use now stops working; '' sends nothing (until deleted). */
const OLD_SECRET_EXPIRIES: ReadonlyArray<{ value: SecretExpiry | ''; label: string }> = [
  { value: '', label: 'Keep working until I delete it' },
  { value: '1h', label: 'In 1 hour' },
  { value: '1d', label: 'In 1 day' },
  { value: '7d', label: 'In 7 days' },
];

/** AX-11: the identity of this dialog's draft for one client. */
export const generateSecretDraft = (clientId: string) => `generate-secret:${clientId}`;

/**
 * Generate a new secret → when the current one stops working → Generate secret → the new
 * secret, shown once (SR-01). Render it only while open: closing unmounts it, and the secret
 * goes with it.
 */
export function GenerateSecretDialog({
  clientId,
  current,
  onClose,
}: {
  clientId: string;
  current: readonly ClientSecret[];
  onClose: () => void;
}) {
  const draft = useRestoredDraft(generateSecretDraft(clientId));
  return (
    <CreateDialog<CreatedClientSecret>
      title="Generate a new secret"
      createdTitle="New secret generated"
      onClose={onClose}
      shownOnce={(created) => ({ value: created.client_secret, noun: 'secret' })}
      restored={draft !== undefined}
      renderForm={(step) => <SecretForm clientId={clientId} hasCurrent={current.length > 0} draft={draft} {...step} />}
      warning={{
        title: 'Copy the new secret now',
        body: (
          <>
            You will not see this secret again. Keep it on your application’s server, never in a browser or a mobile
            app. Give it to your app, then delete the old secret.
          </>
        ),
      }}
      renderCreated={(created) => {
        const old = created.secrets.find((secret) => secret.id !== created.secret.id);
        return (
          <>
            <RevealedSecret label="Client secret" value={created.client_secret} />
            {old ? (
              <p className="muted">
                The secret ending in <code>{old.last4}</code>{' '}
                {old.expires_at ? (
                  <>
                    stops working on <Time value={old.expires_at} withTime />.
                  </>
                ) : (
                  'keeps working until you delete it.'
                )}
              </p>
            ) : null}
          </>
        );
      }}
    />
  );
}

function SecretForm({
  clientId,
  hasCurrent,
  draft,
  onCreated,
  onCancel,
}: {
  clientId: string;
  hasCurrent: boolean;
  draft: RestoredDraft | undefined;
  onCreated: (created: CreatedClientSecret) => void;
  onCancel: () => void;
}) {
  const [expiry, setExpiry] = useState<SecretExpiry | ''>(
    () =>
      draft?.oneOf(
        'oldSecretExpiresIn',
        OLD_SECRET_EXPIRIES.map((option) => option.value),
        '',
      ) ?? '',
  );
  useDialogDraft(generateSecretDraft(clientId), { oldSecretExpiresIn: expiry });
  const createSecret = useCreateClientSecret(clientId, { onCreated });
  return (
    <CreateForm
      submitLabel="Generate secret"
      pending={createSecret.isPending}
      error={createSecret.error ? errorMessage(createSecret.error) : undefined}
      onSubmit={() => createSecret.mutate(expiry || undefined)}
      onCancel={onCancel}
    >
      {hasCurrent ? (
        <Field
          label="When should the current secret stop working?"
          hint="Until then your app may use either secret, so you can deploy the new one without downtime."
        >
          {(control) => (
            <select
              {...control}
              name="old_secret_expires_in"
              value={expiry}
              onChange={(event) => setExpiry(event.target.value as SecretExpiry | '')}
              data-autofocus
            >
              {OLD_SECRET_EXPIRIES.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </select>
          )}
        </Field>
      ) : (
        <p>This client has no secret in use: the new one will be its only secret.</p>
      )}
    </CreateForm>
  );
}
