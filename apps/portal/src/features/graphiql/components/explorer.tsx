import './monaco-workers.ts';
// The lean GraphiQL styles (TOOLCHAIN.md): the components' CSS without the inlined fonts and
// the duplicate editor CSS of `graphiql/style.css`. Monaco brings its own editor CSS.
import '@graphiql/react/style.css';
import '@graphiql/plugin-doc-explorer/style.css';
import '@graphiql/plugin-history/style.css';
import 'graphiql/graphiql.css';
import { GraphiQL } from 'graphiql';
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
 * GraphiQL against the portal's /bff/graphql. The request headers editor is off: the session
 * authenticates every request, and a token pasted there would be kept in the browser.
 */
export function Explorer() {
  return (
    <div className={styles.explorer}>
      <GraphiQL fetcher={graphqlFetcher} defaultQuery={STARTER_QUERY} isHeadersEditorEnabled={false} shouldPersistHeaders={false} />
    </div>
  );
}
