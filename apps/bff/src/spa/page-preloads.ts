import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { accountUrl, BFF_ACCOUNT_BASE } from '@latchkey/contracts';

/**
 * What each portal page needs first, so the browser can fetch it with the HTML instead of after
 * the app's script has run (issue 20): on a phone's network every round trip saved is half a
 * second. The page's module and its chunks come from the build's manifest
 * (apps/portal/dist/.vite/manifest.json, keyed by source file); its data are the account
 * routes the page reads on arrival, by their name in the route table (packages/contracts). page-preloads.test.ts holds the table to the build, so a
 * renamed route module fails there rather than silently preloading nothing.
 */
export const PAGES: ReadonlyArray<{
  path: RegExp;
  module: string;
  /** Chunks the page's module imports dynamically that it always loads at once. */
  alsoLoads?: { module: string; dynamic: RegExp };
  data: (params: string[]) => string[];
}> = [
  {
    path: /^\/clients\/?$/,
    module: 'src/app/routes/clients.tsx',
    data: () => [accountUrl(BFF_ACCOUNT_BASE, '/clients')],
  },
  {
    path: /^\/clients\/([A-Za-z0-9_-]{1,64})\/?$/,
    module: 'src/app/routes/client.tsx',
    data: ([id]) => [accountUrl(BFF_ACCOUNT_BASE, '/clients/:id', id!)],
  },
  // Not the authorized applications below the list: HTTP/1.1 browsers open six connections to
  // a host, and the first script's files and these already take them all.
  { path: /^\/tokens\/?$/, module: 'src/app/routes/tokens.tsx', data: () => [accountUrl(BFF_ACCOUNT_BASE, '/tokens')] },
  // The Explorer renders GraphiQL at once, and GraphiQL loads Monaco (its editor) and
  // monaco-graphql at once; not Prettier, which only its Prettify button loads.
  {
    path: /^\/explorer\/?$/,
    module: 'src/app/routes/graphiql.tsx',
    alsoLoads: {
      module: 'src/features/graphiql/components/explorer.tsx',
      dynamic: /monaco-editor|mouseTarget|monaco-graphql\/esm\/lite/,
    },
    data: () => [],
  },
];

/** Every page's frame asks who is signed in. */
const SESSION = '/bff/session';

interface ManifestChunk {
  file: string;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}

function readManifest(distDir: string): Record<string, ManifestChunk> {
  try {
    return JSON.parse(readFileSync(join(distDir, '.vite', 'manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
  } catch {
    return {};
  }
}

/**
 * The chunks' files, the files of the chunks they import (transitively; dynamic imports only
 * when `dynamic` matches their key), and their stylesheets.
 */
function filesOf(
  manifest: Record<string, ManifestChunk>,
  keys: string[],
  dynamic?: RegExp,
): { scripts: string[]; styles: string[] } {
  const scripts = new Set<string>();
  const styles = new Set<string>();
  const visited = new Set<string>();
  const visit = (name: string): void => {
    const chunk = manifest[name];
    if (!chunk || visited.has(name)) return;
    visited.add(name);
    if (chunk.file.endsWith('.js')) scripts.add(chunk.file);
    for (const css of chunk.css ?? []) styles.add(css);
    for (const imported of chunk.imports ?? []) visit(imported);
    for (const imported of chunk.dynamicImports ?? []) if (dynamic?.test(imported)) visit(imported);
  };
  for (const key of keys) visit(key);
  return { scripts: [...scripts], styles: [...styles] };
}

/**
 * A function from a page's path to the `Link` header that preloads what it needs (RFC 8288;
 * `modulepreload`, `preload` as style and as fetch), or undefined for a path of no known page.
 * The manifest is read once, when the server starts, as the precompressed files are listed.
 */
export function pagePreloads(distDir: string): (path: string) => string | undefined {
  const manifest = readManifest(distDir);
  // The entry and what it imports are in index.html already (Vite's own modulepreload links).
  const index = filesOf(manifest, ['index.html']);
  const inIndex = new Set(index.scripts);
  const inIndexStyles = new Set(index.styles);
  const pages = PAGES.map((page) => {
    const keys = page.alsoLoads ? [page.module, page.alsoLoads.module] : [page.module];
    const { scripts, styles } = filesOf(manifest, keys, page.alsoLoads?.dynamic);
    return {
      ...page,
      links: [
        ...scripts.filter((file) => !inIndex.has(file)).map((file) => `</${file}>; rel=modulepreload`),
        ...styles.filter((file) => !inIndexStyles.has(file)).map((file) => `</${file}>; rel=preload; as=style`),
      ],
    };
  });
  return (path) => {
    for (const page of pages) {
      const match = page.path.exec(path);
      if (!match) continue;
      const data = [SESSION, ...page.data(match.slice(1))].map((url) => `<${url}>; rel=preload; as=fetch; crossorigin`);
      return [...page.links, ...data].join(', ');
    }
    return undefined;
  };
}
