import { useCallback, useEffect, useRef } from 'react';

/** Marks a list row (`data-row-key`) and the button in it that revokes or deletes it (`data-row-action`). */
export const REVOKE_ACTION = 'revoke';

interface Pending {
  /** The row whose revoke was confirmed. */
  key: string;
  /** Every row's key, in order, when it was: where "next" and "previous" are. */
  order: string[];
}

/** The revoke buttons inside `scope`, by their row's key. */
function revokeButtons(scope: HTMLElement | null): Map<string, HTMLElement> {
  const buttons = new Map<string, HTMLElement>();
  for (const button of scope?.querySelectorAll<HTMLElement>(`[data-row-action="${REVOKE_ACTION}"]`) ?? []) {
    const key = button.closest<HTMLElement>('[data-row-key]')?.dataset.rowKey;
    if (key !== undefined) buttons.set(key, button);
  }
  return buttons;
}

function rowKeys(scope: HTMLElement | null): string[] {
  return [...(scope?.querySelectorAll<HTMLElement>('[data-row-key]') ?? [])].map((row) => row.dataset.rowKey ?? '');
}

/**
 * AX-03: where focus goes once a row's revoke (or delete) is confirmed, instead of `<body>` when
 * the button it came from disappears. Wait until the list shows the row without its revoke
 * button (removed, or kept as "Revoked"), then focus the next row's revoke button, else the
 * previous row's, else `fallback()` (the list's heading, or the empty state that replaced it).
 * A cancelled dialog needs none of this: the dialog gives focus back to its opener.
 *
 * Put `listRef` on the element holding the rows (DataTable), `data-row-key` on each row and
 * `data-row-action={REVOKE_ACTION}` on its revoke button; call `revoked(key)` on success.
 */
export function useFocusAfterRevoke(fallback: () => HTMLElement | null) {
  const scope = useRef<HTMLDivElement>(null);
  const pending = useRef<Pending | null>(null);

  // After every render: the list may catch up with the revoke in a later render than the one
  // that closed the dialog (the refetch lands after it), so this checks each time until it has.
  useEffect(() => {
    const waiting = pending.current;
    if (waiting === null) return;
    const buttons = revokeButtons(scope.current);
    if (buttons.has(waiting.key)) return;
    pending.current = null;
    const at = waiting.order.indexOf(waiting.key);
    const candidates = [...waiting.order.slice(at + 1), ...waiting.order.slice(0, Math.max(at, 0)).reverse()];
    const next = candidates.map((key) => buttons.get(key)).find((button) => button !== undefined);
    (next ?? fallback())?.focus();
  });

  const revoked = useCallback((key: string) => {
    pending.current = { key, order: rowKeys(scope.current) };
  }, []);

  return { listRef: scope, revoked };
}
