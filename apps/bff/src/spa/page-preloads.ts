import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { accountUrl, BFF_ACCOUNT_BASE, FRAME_PAGES, matchPage, type FramePageName } from '@latchkey/contracts';

/**
 * What each portal page needs first, so the browser can fetch it with the HTML instead of after
 * the app's script has run (issue 20, PF-05): on a phone's network every round trip saved is half a
 * second. Which pages there are and the account routes each reads on arrival come from the
 * page table (PORTAL_PAGES, packages/contracts); the page's module and its chunks from the
 * build's manifest (apps/portal/dist/.vite/manifest.json, keyed by source file), by the module
 * named here for each page of the signed-in frame. page-preloads.test.ts holds these to the
 * build, so a renamed route module fails there rather than silently preloading nothing.
 */
const MODULES: Record<
  FramePageName,
  {
    module: string;
    /** Chunks the page's module imports dynamically that it always loads at once. */
    alsoLoads?: { module: string; dynamic: RegExp };
  }
> = {
  clients: { module: 'src/app/routes/clients.tsx' },
  client: { module: 'src/app/routes/client.tsx' },
  tokens: { module: 'src/app/routes/tokens.tsx' },
  // The Explorer renders GraphiQL at once, and GraphiQL loads Monaco (its editor) and
  // monaco-graphql at once; not Prettier, which only its Prettify button loads.
  explorer: {
    module: 'src/app/routes/graphiql.tsx',
    alsoLoads: {
      module: 'src/features/graphiql/components/explorer.tsx',
      dynamic: /monaco-editor|mouseTarget|monaco-graphql\/esm\/lite/,
    },
  },
  securityLog: { module: 'src/app/routes/security-log.tsx' },
};

export const PAGES = FRAME_PAGES.map((page) => ({ ...page, ...MODULES[page.name] }));

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
 * `modulepreload`, `preload` as style and as fetch), or undefined for a path that is no page of the signed-in frame.
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
    const match = matchPage(path);
    const page = pages.find(({ name }) => name === match?.name);
    if (match === undefined || page === undefined) return undefined;
    // A route's `:id` is the page's; a route without one ignores it.
    const data = [SESSION, ...page.preloads.map((route) => accountUrl(BFF_ACCOUNT_BASE, route, match.params.id!))];
    return [...page.links, ...data.map((url) => `<${url}>; rel=preload; as=fetch; crossorigin`)].join(', ');
  };
}
