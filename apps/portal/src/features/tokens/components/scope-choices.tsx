import { SCOPES, THIRD_PARTY_SCOPES, type Scope } from '@latchkey/contracts';
import { useId, type Ref } from 'react';
import styles from './scope-choices.module.css';

interface ScopeChoicesProps {
  value: readonly Scope[];
  onChange: (scopes: Scope[]) => void;
  error?: string | undefined;
  /** The group, so a refusal can put focus on its first checkbox. */
  ref?: Ref<HTMLFieldSetElement>;
}

/**
 * What a new token may do (SC-07): one checkbox per scope a personal access token may hold,
 * labelled with the sentence the consent page uses, in registry order. A group of controls, so
 * a fieldset whose legend names it; the hint and the error are read with the group.
 */
export function ScopeChoices({ value, onChange, error, ref }: ScopeChoicesProps) {
  const id = useId();
  const errorId = error ? `${id}-error` : undefined;
  const hintId = `${id}-hint`;

  function toggle(scope: Scope, checked: boolean): void {
    onChange(THIRD_PARTY_SCOPES.filter((s) => (s === scope ? checked : value.includes(s))));
  }

  return (
    <fieldset
      ref={ref}
      className={error ? `${styles.fieldset} field--invalid` : styles.fieldset}
      aria-describedby={[errorId, hintId].filter(Boolean).join(' ')}
    >
      <legend className={`field__label ${styles.legend}`}>Scopes</legend>
      {THIRD_PARTY_SCOPES.map((scope) => (
        <label key={scope} className="choice">
          <input
            type="checkbox"
            name="scopes"
            value={scope}
            checked={value.includes(scope)}
            aria-invalid={Boolean(error)}
            onChange={(event) => toggle(scope, event.target.checked)}
          />
          <span>
            {SCOPES[scope].sentence} <code>{scope}</code>
          </span>
        </label>
      ))}
      {error ? (
        <p id={errorId} className="field__error">
          {error}
        </p>
      ) : null}
      <p id={hintId} className="field__hint">
        What the token may do. It can never manage your clients or tokens.
      </p>
    </fieldset>
  );
}
