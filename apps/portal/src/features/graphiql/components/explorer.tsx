import './monaco-workers.ts';
// The lean GraphiQL styles: the components' CSS without the inlined fonts and the duplicate
// editor CSS of `graphiql/style.css` (about 25 KiB gzip against 359). Monaco brings its own editor CSS.
import '@graphiql/react/style.css';
import '@graphiql/plugin-doc-explorer/style.css';
import '@graphiql/plugin-history/style.css';
import 'graphiql/graphiql.css';
import { GraphiQL } from 'graphiql';
import { useMemo } from 'react';
import { explorerStorage } from '../api/explorer-storage.ts';
import { graphqlFetcher } from '../api/graphql-fetcher.ts';
import styles from './explorer.module.css';

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
 */
export function Explorer({ userId }: { userId: string }) {
  const storage = useMemo(() => explorerStorage(userId), [userId]);
  return (
    <div className={styles.explorer}>
      <GraphiQL
        key={userId}
        fetcher={graphqlFetcher}
        storage={storage}
        defaultQuery={STARTER_QUERY}
        isHeadersEditorEnabled={false}
        shouldPersistHeaders={false}
      />
    </div>
  );
}
