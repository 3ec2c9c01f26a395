/**
 * A tiny store of transient notifications, readable with useSyncExternalStore. It lives in
 * lib so the query client can report failures that no component shows inline.
 */
export interface Toast {
  id: number;
  tone: 'error' | 'success';
  message: string;
}

const TOAST_MS = 6000;
let toasts: readonly Toast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
/** The dismissal timer of each toast shown, cleared with it. */
const timers = new Map<number, ReturnType<typeof setTimeout>>();

function emit(next: readonly Toast[]): void {
  toasts = next;
  for (const listener of listeners) listener();
}

export function dismissToast(id: number): void {
  clearTimeout(timers.get(id));
  timers.delete(id);
  // Nothing to tell the listeners when the toast is already gone (dismissed, or cleared).
  if (!toasts.some((toast) => toast.id === id)) return;
  emit(toasts.filter((toast) => toast.id !== id));
}

export function showToast(toast: Omit<Toast, 'id'>): void {
  const id = nextId++;
  // The same message twice in a row (two failed refetches) is shown once.
  if (toasts.some((t) => t.message === toast.message)) return;
  emit([...toasts, { ...toast, id }]);
  timers.set(
    id,
    setTimeout(() => dismissToast(id), TOAST_MS),
  );
}

export function subscribeToToasts(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function getToasts(): readonly Toast[] {
  return toasts;
}

/** Removes every toast and its timer: none fires later (into the next test, or the next page). */
export function clearToasts(): void {
  for (const timer of timers.values()) clearTimeout(timer);
  timers.clear();
  emit([]);
}
