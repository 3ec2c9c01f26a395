import { useState } from 'react';
import { ApiError, errorMessage } from './api-client.ts';

export type FieldErrors<K extends string> = Partial<Record<K, string | undefined>>;

interface FieldErrorsOptions<K extends string> {
  /** The form's fields in the order they appear: focus goes to the first invalid one. */
  fields: readonly K[];
  /** The request field a server refusal names (`validation_failed`'s `field`) → the form's field. */
  serverFields: Readonly<Record<string, K>>;
  /** Puts focus on a field's control. */
  focus: (field: K) => void;
}

/** The form field a server refusal is about, if it names one of this form's. */
function serverFieldErrors<K extends string>(
  error: unknown,
  serverFields: Readonly<Record<string, K>>,
): FieldErrors<K> {
  if (!(error instanceof ApiError) || error.field === undefined || !Object.hasOwn(serverFields, error.field)) return {};
  return { [serverFields[error.field]!]: error.message } as FieldErrors<K>;
}

/**
 * A form's error messages, from its own checks or from the server, each shown under the field
 * it is about (Field ties it to the control with aria-describedby), and focus moved to the
 * first invalid field so a keyboard or screen-reader user lands on it.
 */
export function useFieldErrors<K extends string>({ fields, serverFields, focus }: FieldErrorsOptions<K>) {
  const [errors, setErrors] = useState<FieldErrors<K>>({});

  /** Shows `found` (replacing what was shown) and focuses the first invalid field; true if there is one. */
  function show(found: FieldErrors<K>): boolean {
    setErrors(found);
    const first = fields.find((field) => found[field] !== undefined);
    if (first !== undefined) focus(first);
    return first !== undefined;
  }

  return {
    errors,
    show,
    /** The user is changing the field: its message no longer applies. */
    clear: (field: K) => setErrors((current) => ({ ...current, [field]: undefined })),
    /** A refused request: under the field it names, else nowhere (see `generalError`). */
    showServerError: (error: unknown) => void show(serverFieldErrors(error, serverFields)),
    /** The message of a failure that names none of the fields, for the form's own alert. */
    generalError: (error: unknown): string | undefined =>
      error && Object.keys(serverFieldErrors(error, serverFields)).length === 0 ? errorMessage(error) : undefined,
  };
}
