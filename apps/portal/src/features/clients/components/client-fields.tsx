import { useId, type ReactNode, type Ref } from 'react';
import { ID_TOKEN_SIGNED_RESPONSE_ALGS, MAX_NAME_LENGTH, type IdTokenSignedResponseAlg } from '@latchkey/contracts';
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

/** How each ID token algorithm is offered (OI-20); RS256 first, the default. */
const ID_TOKEN_ALG_LABELS: Record<IdTokenSignedResponseAlg, string> = {
  RS256: 'RS256 (RSA, the default)',
  ES256: 'ES256 (ECDSA, curve P‑256)',
};

/**
 * OI-20: ID token signing algorithm (`id_token_signed_response_alg`), in New client and Edit
 * client; only RS256 and ES256 are offered, and the server refuses anything else.
 */
export function IdTokenAlgField({
  value,
  error,
  ref,
  onChange,
}: {
  value: IdTokenSignedResponseAlg;
  error: string | undefined;
  ref: Ref<HTMLSelectElement>;
  onChange: (value: IdTokenSignedResponseAlg) => void;
}) {
  return (
    <Field
      label="ID token signing algorithm"
      error={error}
      hint="How Latchkey signs the ID tokens your application gets when it asks for the openid scope. Keep RS256 unless your library needs ES256."
    >
      {(control) => (
        <select
          {...control}
          ref={ref}
          name="id_token_signed_response_alg"
          value={value}
          onChange={(event) => onChange(event.target.value as IdTokenSignedResponseAlg)}
        >
          {ID_TOKEN_SIGNED_RESPONSE_ALGS.map((alg) => (
            <option key={alg} value={alg}>
              {ID_TOKEN_ALG_LABELS[alg]}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

/**
 * DV-25: the client's opt-in to the device authorization grant (RFC 8628, `device_grant`), in
 * New client and Edit client: the device shows a code that people enter on /device elsewhere.
 */
export function DeviceGrantField({ checked, onChange }: { checked: boolean; onChange: (checked: boolean) => void }) {
  const hintId = useId();
  return (
    <div>
      <label className="choice">
        <input
          type="checkbox"
          name="device_grant"
          checked={checked}
          aria-describedby={hintId}
          onChange={(event) => onChange(event.target.checked)}
        />
        <span>Allow sign-in on devices without a browser (device flow)</span>
      </label>
      <p id={hintId} className="field__hint">
        For a command-line tool, a TV or a script over SSH: it shows a short code that people enter on their phone or
        computer.
      </p>
    </div>
  );
}
