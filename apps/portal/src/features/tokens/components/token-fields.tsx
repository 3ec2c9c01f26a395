import { MAX_DESCRIPTION_LENGTH, MAX_NAME_LENGTH } from '@latchkey/contracts';
import type { Ref } from 'react';
import { Field } from '../../../components/field.tsx';

interface TextFieldProps<E> {
  value: string;
  error: string | undefined;
  ref?: Ref<E>;
  onChange: (value: string) => void;
}

/** A token's name, in Generate token and Edit token alike; the first field, so it takes focus. */
export function TokenNameField({ value, error, ref, onChange }: TextFieldProps<HTMLInputElement>) {
  return (
    <Field label="Token name" error={error} hint="What the token is for, such as “CI deploys”.">
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

/** TR-01, TR-13: what the token is for, shown under its name in the list. */
export function TokenDescriptionField({ value, error, ref, onChange }: TextFieldProps<HTMLTextAreaElement>) {
  return (
    <Field
      label="Description (optional)"
      error={error}
      hint={`Where it is used or who looks after it, shown under its name; up to ${MAX_DESCRIPTION_LENGTH} characters.`}
    >
      {(control) => (
        <textarea
          {...control}
          ref={ref}
          name="description"
          rows={2}
          maxLength={MAX_DESCRIPTION_LENGTH + 20}
          value={value}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
    </Field>
  );
}
