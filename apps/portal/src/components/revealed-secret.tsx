import { useContext, useId } from 'react';
import { CopiedContext, CopyButton } from './copy-button.tsx';
import styles from './revealed-secret.module.css';

/**
 * A credential shown once (a client secret, a token) or an identifier shown beside it: a
 * read-only field that selects itself on focus, with a copy button. The value is only ever
 * held by the component that received it from the server, never in a cache, the URL or storage.
 * AX-12: a read-only textarea that grows with its value and wraps it, so a phone shows all of it
 * (an input cut it off at the field's width); copied whole by hand (Ctrl+C), it counts as copied
 * too (CopiedContext, AX-10).
 */
export function RevealedSecret({ label, value, copyLabel }: { label: string; value: string; copyLabel?: string }) {
  const id = useId();
  const onCopied = useContext(CopiedContext);
  return (
    <div className={styles.field}>
      <label htmlFor={id} className={styles.label}>
        {label}
      </label>
      <div className={styles.row}>
        <textarea
          id={id}
          className={styles.value}
          value={value}
          readOnly
          rows={1}
          spellCheck={false}
          autoComplete="off"
          onFocus={(event) => event.currentTarget.select()}
          onCopy={(event) => {
            const { selectionStart, selectionEnd } = event.currentTarget;
            if (value.slice(selectionStart, selectionEnd) === value) onCopied?.(value);
          }}
        />
        <CopyButton value={value} label={copyLabel ?? `Copy ${label.toLowerCase()}`} />
      </div>
    </div>
  );
}
