import { createContext, useContext, useEffect, useState } from 'react';
import { Button } from './button.tsx';

type CopyState = 'idle' | 'copied' | 'failed';

/**
 * Told of each value a CopyButton inside it has put on the clipboard. A shown-once dialog
 * provides it, so that closing after a copy asks nothing (AX-10).
 */
export const CopiedContext = createContext<((value: string) => void) | null>(null);

/**
 * Copies a value to the clipboard. Its accessible name says what it copies ("Copy client
 * secret") and a polite live region confirms the copy for screen-reader users.
 */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const [state, setState] = useState<CopyState>('idle');
  const onCopied = useContext(CopiedContext);

  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), 2500);
    return () => clearTimeout(timer);
  }, [state]);

  async function copy(): Promise<void> {
    try {
      await navigator.clipboard.writeText(value);
      setState('copied');
      onCopied?.(value);
    } catch {
      setState('failed');
    }
  }

  return (
    <>
      <Button size="small" aria-label={label} onClick={() => void copy()}>
        {state === 'copied' ? 'Copied' : 'Copy'}
      </Button>
      <span className="visually-hidden" role="status">
        {state === 'copied'
          ? 'Copied to the clipboard.'
          : state === 'failed'
            ? 'Copy failed: select the text and copy it.'
            : ''}
      </span>
    </>
  );
}
