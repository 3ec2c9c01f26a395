import { pick, useGraphiQL, useGraphiQLActions } from '@graphiql/react';
import { useEffect, useRef } from 'react';
import styles from './explorer.module.css';

/** The phone width, the same as the portal's (global.css, 40rem). */
export const PHONE_QUERY = '(max-width: 40rem)';

/**
 * AX-04: on a phone the docs and history panels cover the screen (explorer.module.css), hiding
 * GraphiQL's sidebar button that toggles them, so the panel gets its own labelled close button,
 * which takes the focus when the panel opens there; Escape closes it too. Focus then returns to
 * the sidebar button that opened it. Hidden at wider widths, where the panel sits beside the editor.
 */
export function PluginOverlayClose() {
  const { visiblePlugin } = useGraphiQL(pick('visiblePlugin'));
  const { setVisiblePlugin } = useGraphiQLActions();
  const button = useRef<HTMLButtonElement>(null);
  const opener = useRef<Element | null>(null);
  const title = visiblePlugin?.title;

  useEffect(() => {
    if (!title || !window.matchMedia(PHONE_QUERY).matches) return;
    opener.current = document.activeElement;
    button.current?.focus();
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setVisiblePlugin(null);
    };
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      if (opener.current instanceof HTMLElement && opener.current.isConnected) opener.current.focus();
    };
  }, [title, setVisiblePlugin]);

  if (!title) return null;
  return (
    <button
      ref={button}
      type="button"
      className={`button button--secondary ${styles.overlayClose}`}
      onClick={() => setVisiblePlugin(null)}
    >
      Close {title}
    </button>
  );
}
