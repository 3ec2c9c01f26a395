import { useId } from 'react';
import { CopyButton } from './copy-button.tsx';
import styles from './revealed-secret.module.css';

/**
 * A credential shown once (a client secret, a token) or an identifier shown beside it: a
 * read-only field that selects itself on focus, with a copy button. The value is only ever
 * held by the component that received it from the server, never in a cache, the URL or storage.
 */
export function RevealedSecret({ label, value, copyLabel }: { label: string; value: string; copyLabel?: string }) {
  const id = useId();
  return (
    <div className={styles.field}>
      <label htmlFor={id} className={styles.label}>
        {label}
      </label>
      <div className={styles.row}>
        <input
          id={id}
          className={styles.value}
          value={value}
          readOnly
          spellCheck={false}
          autoComplete="off"
          onFocus={(event) => event.currentTarget.select()}
        />
        <CopyButton value={value} label={copyLabel ?? `Copy ${label.toLowerCase()}`} />
      </div>
    </div>
  );
}
