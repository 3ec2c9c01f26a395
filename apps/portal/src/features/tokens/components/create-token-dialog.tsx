import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Alert } from '../../../components/alert.tsx';
import { Button } from '../../../components/button.tsx';
import { Dialog } from '../../../components/dialog.tsx';
import { Field } from '../../../components/field.tsx';
import { RevealedSecret } from '../../../components/revealed-secret.tsx';
import { Time } from '../../../components/time.tsx';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';
import { formatDate } from '../../../lib/format-date.ts';
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

const MAX_NAME_LENGTH = 100;

interface TokenFormErrors {
  name?: string | undefined;
  expiration?: string | undefined;
}

function validateName(value: string): string | undefined {
  const name = value.trim();
  if (name.length === 0) return 'Enter a token name.';
  if (name.length > MAX_NAME_LENGTH) return `Use at most ${MAX_NAME_LENGTH} characters.`;
  return undefined;
}

function fieldErrorsFrom(error: unknown): TokenFormErrors {
  if (!(error instanceof ApiError) || !error.field) return {};
  if (error.field === 'name') return { name: error.message };
  if (error.field === 'expires_at' || error.field === 'expires_in_days') return { expiration: error.message };
  return {};
}

/**
 * Generate token → Token name, Expiration → Generate token → the token, shown once. Render it
 * only while open: closing unmounts it, and the token's value goes with it.
 */
export function CreateTokenDialog({ onClose }: { onClose: () => void }) {
  const [created, setCreated] = useState<CreatedToken | null>(null);
  return (
    <Dialog open title={created ? 'Token generated' : 'Generate token'} onClose={onClose}>
      {created ? <CreatedTokenDetails created={created} onDone={onClose} /> : <TokenForm onCreated={setCreated} onCancel={onClose} />}
    </Dialog>
  );
}

function TokenForm({ onCreated, onCancel }: { onCreated: (created: CreatedToken) => void; onCancel: () => void }) {
  const [today] = useState(() => new Date());
  const [name, setName] = useState('');
  const [choice, setChoice] = useState<ExpirationChoice>(DEFAULT_EXPIRATION);
  const [customDate, setCustomDate] = useState('');
  const [errors, setErrors] = useState<TokenFormErrors>({});
  const nameRef = useRef<HTMLInputElement>(null);
  const expirationRef = useRef<HTMLSelectElement>(null);
  const dateRef = useRef<HTMLInputElement>(null);
  const createToken = useCreateToken({ onCreated });
  const range = customDateRange(today);
  const preview = expiryPreview(choice, customDate, today);
  const generalError =
    createToken.error && Object.keys(fieldErrorsFrom(createToken.error)).length === 0 ? errorMessage(createToken.error) : undefined;

  function focusFirstInvalid(found: TokenFormErrors): void {
    if (found.name) nameRef.current?.focus();
    else if (found.expiration) (choice === 'custom' ? dateRef : expirationRef).current?.focus();
  }

  function submit(event: FormEvent<HTMLFormElement>): void {
    event.preventDefault();
    const found: TokenFormErrors = {
      name: validateName(name),
      expiration: choice === 'custom' ? validateCustomDate(customDate, today) : undefined,
    };
    setErrors(found);
    if (found.name || found.expiration) {
      focusFirstInvalid(found);
      return;
    }
    createToken.mutate(
      { name: name.trim(), expiration: expirationRequest(choice, customDate) },
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
      <Field label="Token name" error={errors.name} hint="What the token is for, such as “CI deploys”.">
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
        label="Expiration"
        error={choice === 'custom' ? undefined : errors.expiration}
        hint={choice !== 'custom' && preview ? <>The token will expire on {formatDate(preview.toISOString())}.</> : undefined}
      >
        {(control) => (
          <select
            {...control}
            ref={expirationRef}
            name="expiration"
            value={choice}
            onChange={(event) => {
              setChoice(event.target.value as ExpirationChoice);
              setErrors((current) => ({ ...current, expiration: undefined }));
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
        <Field label="Expiration date" error={errors.expiration} hint="The token stops working at the start of this day, in your time zone.">
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
                setErrors((current) => ({ ...current, expiration: undefined }));
              }}
            />
          )}
        </Field>
      ) : null}
      {generalError ? <Alert tone="error">{generalError}</Alert> : null}
      <div className="form-actions">
        <Button onClick={onCancel}>Cancel</Button>
        <Button type="submit" variant="primary" disabled={createToken.isPending} aria-busy={createToken.isPending}>
          Generate token
        </Button>
      </div>
    </form>
  );
}

function CreatedTokenDetails({ created, onDone }: { created: CreatedToken; onDone: () => void }) {
  const ref = useRef<HTMLDivElement>(null);
  // The form that had focus is gone: start reading at the warning.
  useEffect(() => ref.current?.focus(), []);
  return (
    <div className="stack">
      <div ref={ref} tabIndex={-1} className="focus-target">
        <Alert tone="warning" title="Copy your token now">
          You will not see this token again. Treat it like a password: anyone who has it can call the API as you until
          it expires or you revoke it.
        </Alert>
      </div>
      <RevealedSecret label="Token" value={created.value} />
      <p className="muted">
        <strong>{created.token.name}</strong> expires on <Time value={created.token.expires_at} />. Send it as{' '}
        <code>Authorization: Bearer &lt;token&gt;</code>.
      </p>
      <div className="form-actions">
        <Button variant="primary" onClick={onDone}>
          Done
        </Button>
      </div>
    </div>
  );
}
