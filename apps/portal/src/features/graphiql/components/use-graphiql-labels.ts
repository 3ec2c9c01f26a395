import { useEffect, type RefObject } from 'react';

/** GraphiQL's controls whose accessible name is wrong, and the one attribute that rights each. */
function relabel(root: ParentNode): void {
  // The settings and short-keys dialogs' close button is named "Close dialog" plus its icon's
  // <title>, made from the minified component's name ("Close dialog sh icon"): hide the icon.
  for (const icon of root.querySelectorAll('.graphiql-dialog-close svg:not([aria-hidden])')) {
    icon.setAttribute('aria-hidden', 'true');
  }
  // A history entry's button shows the query but is named "Set active" (WCAG 2.5.3, label in
  // name): without the aria-label it is named by what it shows; its tooltip still says "Set active".
  for (const item of root.querySelectorAll('.graphiql-history-item-label[aria-label]')) {
    item.removeAttribute('aria-label');
  }
}

/**
 * AX-06: the names GraphiQL gets wrong and offers no prop for (both are built deep inside its
 * sidebar and history plugin), righted as they appear: the dialogs are added to <body>, the
 * history entries inside GraphiQL's frame. React leaves the attributes alone afterwards (it only
 * writes the ones whose value changes). The
 * Explorer's only DOM patch; it touches nothing else.
 */
export function useGraphiqlLabels(container: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const explorer = container.current;
    // GraphiQL fills its frame after its first render, so the whole frame is watched; the
    // check is two selector queries, cheap even while Monaco redraws.
    const observer = new MutationObserver(() => relabel(document));
    observer.observe(document.body, { childList: true });
    if (explorer) observer.observe(explorer, { childList: true, subtree: true });
    relabel(document);
    return () => observer.disconnect();
  }, [container]);
}
