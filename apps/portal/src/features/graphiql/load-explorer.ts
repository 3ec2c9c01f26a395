/**
 * The Explorer's editor (GraphiQL and Monaco, the portal's largest chunk by far): imported by
 * the Explorer page, and ahead of it when the pointer rests on or the keyboard focuses the
 * Explorer link (issue 20, PF-04), so on a slow connection the download has started before the click.
 * The browser's module map makes every call share one download; a failed one may be tried again.
 */
export function loadExplorer(): Promise<typeof import('./components/explorer.tsx')> {
  return import('./components/explorer.tsx');
}
