/**
 * The Explorer's editor (GraphiQL and Monaco, the portal's largest chunk by far), loaded once:
 * by the Explorer page, and ahead of it when the pointer rests on or the keyboard focuses the
 * Explorer link (issue 20), so on a slow connection the download has started before the click.
 */
let loading: Promise<typeof import('./components/explorer.tsx')> | undefined;

export function loadExplorer(): Promise<typeof import('./components/explorer.tsx')> {
  loading ??= import('./components/explorer.tsx');
  return loading;
}
