import { THIRD_PARTY_SCOPES, type Scope } from '@latchkey/contracts';
import { useRef, useState } from 'react';
import { CreateDialog, CreateForm } from '../../../components/create-dialog.tsx';
import { Field } from '../../../components/field.tsx';
import { RevealedSecret } from '../../../components/revealed-secret.tsx';
import { Time } from '../../../components/time.tsx';
import { useDialogDraft, useRestoredDraft, type RestoredDraft } from '../../../lib/dialog-draft.ts';
import { formatDate } from '../../../lib/format-date.ts';
import { useFieldErrors } from '../../../lib/use-field-errors.ts';
import { useCreateToken, type CreatedToken } from '../api/create-token.ts';
import {
  customDateRange,
  DEFAULT_EXPIRATION,
  EXPIRATION_CHOICES,
  expirationRequest,
  expiryPreview,
  validateCustomDate,
  type ExpirationChoice,
} from '../expiration/expiration.ts';
import { validateTokenDescription, validateTokenName } from '../validation/token-details.ts';
import { ScopeChoices } from './scope-choices.tsx';
import { TokenDescriptionField, TokenNameField } from './token-fields.tsx';

/** The request fields a server refusal may name (`validation_failed`), and where each is shown. */
const SERVER_FIELDS = {
  name: 'name',
  description: 'description',
  expires_at: 'expiration',
  expires_in_days: 'expiration',
  scopes: 'scopes',
} as const;

/** AX-11: the identity of this dialog's draft, kept when the session ends while it is open. */
export const CREATE_TOKEN_DRAFT = 'create-token';

/** SC-07: a token needs at least one scope; the server says the same (core's ValidationFailed). */
function validateScopes(scopes: readonly Scope[]): string | undefined {
  return scopes.length === 0 ? 'Choose at least one scope.' : undefined;
}

/**
 * Generate token → Token name, Description (TR-01), Expiration, Scopes → Generate token → the token, shown once. Render it
 * only while open: closing unmounts it, and the token's value goes with it.
 */
export function CreateTokenDialog({ onClose }: { onClose: () => void }) {
  const draft = useRestoredDraft(CREATE_TOKEN_DRAFT);
  return (
    <CreateDialog<CreatedToken>
      title="Generate token"
      createdTitle="Token generated"
      onClose={onClose}
      shownOnce={(created) => ({ value: created.value, noun: 'token' })}
      restored={draft !== undefined}
      renderForm={(step) => <TokenForm draft={draft} {...step} />}
      warning={{
        title: 'Copy your token now',
        body: (
          <>
            You will not see this token again. Treat it like a password: anyone who has it can call the API as you until
            it expires or you revoke it.
          </>
        ),
      }}
      renderCreated={(created) => (
        <>
          <RevealedSecret label="Token" value={created.value} />
          <p className="muted">
            <strong>{created.token.name}</strong> expires on <Time value={created.token.expires_at} />. Send it as{' '}
            <code>Authorization: Bearer &lt;token&gt;</code>.
          </p>
        </>
      )}
    />
  );
}

function TokenForm({
  draft,
  onCreated,
  onCancel,
}: {
  draft: RestoredDraft | undefined;
  onCreated: (created: CreatedToken) => void;
  onCancel: () => void;
}) {
  const [today] = useState(() => new Date());
  const [name, setName] = useState(() => draft?.text('name', '') ?? '');
  const [description, setDescription] = useState(() => draft?.text('description', '') ?? '');
  const [choice, setChoice] = useState<ExpirationChoice>(
    () =>
      draft?.oneOf(
        'expiration',
        EXPIRATION_CHOICES.map((option) => option.value),
        DEFAULT_EXPIRATION,
      ) ?? DEFAULT_EXPIRATION,
  );
  const [customDate, setCustomDate] = useState(() => draft?.text('expiresAt', '') ?? '');
  const [scopes, setScopes] = useState<Scope[]>(
    () => draft?.someOf('scopes', THIRD_PARTY_SCOPES, [...THIRD_PARTY_SCOPES]) ?? [...THIRD_PARTY_SCOPES],
  );
  // AX-11: what is typed here (never the token, which only exists once created) outlives a sign-in.
  useDialogDraft(CREATE_TOKEN_DRAFT, { name, description, expiration: choice, expiresAt: customDate, scopes });
  const nameRef = useRef<HTMLInputElement>(null);
  const descriptionRef = useRef<HTMLTextAreaElement>(null);
  const expirationRef = useRef<HTMLSelectElement>(null);
  const dateRef = useRef<HTMLInputElement>(null);
  const scopesRef = useRef<HTMLFieldSetElement>(null);
  const fieldErrors = useFieldErrors({
    fields: ['name', 'description', 'expiration', 'scopes'],
    serverFields: SERVER_FIELDS,
    focus: (field) => {
      if (field === 'scopes') return scopesRef.current?.querySelector('input')?.focus();
      if (field === 'description') return descriptionRef.current?.focus();
      // With Custom date, the expiration's message is shown under the date, not the select.
      (field === 'name' ? nameRef : choice === 'custom' ? dateRef : expirationRef).current?.focus();
    },
  });
  const { errors } = fieldErrors;
  const createToken = useCreateToken({ onCreated });
  const range = customDateRange(today);
  const preview = expiryPreview(choice, customDate, today);

  function submit(): void {
    const found = {
      name: validateTokenName(name),
      description: validateTokenDescription(description),
      expiration: choice === 'custom' ? validateCustomDate(customDate, today) : undefined,
      scopes: validateScopes(scopes),
    };
    if (fieldErrors.show(found)) return;
    createToken.mutate(
      {
        name: name.trim(),
        description: description.trim(),
        expiration: expirationRequest(choice, customDate),
        scopes,
      },
      { onError: fieldErrors.showServerError },
    );
  }

  return (
    <CreateForm
      submitLabel="Generate token"
      pending={createToken.isPending}
      error={fieldErrors.generalError(createToken.error)}
      onSubmit={submit}
      onCancel={onCancel}
    >
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
      <Field
        label="Expiration"
        error={choice === 'custom' ? undefined : errors.expiration}
        hint={
          choice !== 'custom' && preview ? (
            <>The token will expire on {formatDate(preview.toISOString())}.</>
          ) : undefined
        }
      >
        {(control) => (
          <select
            {...control}
            ref={expirationRef}
            name="expiration"
            value={choice}
            onChange={(event) => {
              setChoice(event.target.value as ExpirationChoice);
              fieldErrors.clear('expiration');
            }}
          >
            {EXPIRATION_CHOICES.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        )}
      </Field>
      {choice === 'custom' ? (
        <Field
          label="Expiration date"
          error={errors.expiration}
          hint="The token stops working at the start of this day, in your time zone."
        >
          {(control) => (
            <input
              {...control}
              ref={dateRef}
              name="expires_at"
              type="date"
              min={range.min}
              max={range.max}
              value={customDate}
              onChange={(event) => {
                setCustomDate(event.target.value);
                fieldErrors.clear('expiration');
              }}
            />
          )}
        </Field>
      ) : null}
      <ScopeChoices
        ref={scopesRef}
        value={scopes}
        error={errors.scopes}
        onChange={(next) => {
          setScopes(next);
          fieldErrors.clear('scopes');
        }}
      />
    </CreateForm>
  );
}
