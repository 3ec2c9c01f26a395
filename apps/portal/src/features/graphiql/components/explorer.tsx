import './monaco-workers.ts';
// The lean GraphiQL styles: the components' CSS without the inlined fonts and the duplicate
// editor CSS of `graphiql/style.css` (about 25 KiB gzip against 359). Monaco brings its own editor CSS.
import '@graphiql/react/style.css';
import '@graphiql/plugin-doc-explorer/style.css';
import '@graphiql/plugin-history/style.css';
import 'graphiql/graphiql.css';
import { GraphiQL } from 'graphiql';
import { useMemo, useRef } from 'react';
import { explorerStorage } from '../api/explorer-storage.ts';
import { graphqlFetcher } from '../api/graphql-fetcher.ts';
import styles from './explorer.module.css';
import { PHONE_QUERY, PluginOverlayClose } from './plugin-overlay-close.tsx';
import { useGraphiqlLabels } from './use-graphiql-labels.ts';

/** `{ profile { name } }`, the API's documented field. */
export const STARTER_QUERY = `{
  profile {
    name
  }
}
`;

/**
 * GraphiQL against the portal's /bff/graphql, for the signed-in user `userId`: its query, tabs
 * and history are stored for that user only and forgotten on sign-out (SO-08). The request
 * headers editor is off: the session authenticates every request, and a token pasted there
 * would be kept in the browser.
 * AX-04: on a phone the editors stack (explorer.module.css) and the variables editor starts open,
 * so the query, its variables and the result are all in view. AX-05: the page's note (tab-key-note.tsx)
 * says how to leave the editor by keyboard. AX-06: the portal's focus ring and contrast (explorer.module.css)
 * and the names GraphiQL gets wrong (use-graphiql-labels.ts). AX-07: the theme follows the OS
 * setting, like the portal's (`forcedTheme="system"` also drops the settings' own theme choice
 * and any stored one).
 */
export function Explorer({ userId }: { userId: string }) {
  const storage = useMemo(() => explorerStorage(userId), [userId]);
  const onPhone = useMemo(() => window.matchMedia(PHONE_QUERY).matches, []);
  const container = useRef<HTMLDivElement>(null);
  useGraphiqlLabels(container);
  return (
    <div ref={container} className={styles.explorer}>
      <GraphiQL
        key={userId}
        fetcher={graphqlFetcher}
        storage={storage}
        defaultQuery={STARTER_QUERY}
        defaultEditorToolsVisibility={onPhone ? 'variables' : undefined}
        forcedTheme="system"
        isHeadersEditorEnabled={false}
        shouldPersistHeaders={false}
      >
        <PluginOverlayClose />
      </GraphiQL>
    </div>
  );
}
