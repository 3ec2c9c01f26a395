import type { ReactNode, Ref } from 'react';
import { MAX_NAME_LENGTH } from '@latchkey/contracts';
import { Field } from '../../../components/field.tsx';

interface TextFieldProps<E extends HTMLElement> {
  value: string;
  error: string | undefined;
  ref: Ref<E>;
  onChange: (value: string) => void;
}

/** Client name: the first field of New client and Edit client, focused when the dialog opens. */
export function ClientNameField({ value, error, ref, onChange }: TextFieldProps<HTMLInputElement>) {
  return (
    <Field label="Client name" error={error} hint="Shown to people when your application asks for their approval.">
      {(control) => (
        <input
          {...control}
          ref={ref}
          name="name"
          type="text"
          autoComplete="off"
          maxLength={MAX_NAME_LENGTH + 20}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          data-autofocus
        />
      )}
    </Field>
  );
}

/** One URL (redirect, post-logout, homepage, policy): typed as a URL, never spell-checked. */
export function UrlField({
  label,
  hint,
  name,
  value,
  error,
  ref,
  onChange,
}: TextFieldProps<HTMLInputElement> & { label: string; hint?: ReactNode; name: string }) {
  return (
    <Field label={label} error={error} hint={hint}>
      {(control) => (
        <input
          {...control}
          ref={ref}
          name={name}
          type="url"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          placeholder="https://"
          value={value}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
    </Field>
  );
}
