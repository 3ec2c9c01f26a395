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

function emit(next: readonly Toast[]): void {
  toasts = next;
  for (const listener of listeners) listener();
}

export function dismissToast(id: number): void {
  emit(toasts.filter((toast) => toast.id !== id));
}

export function showToast(toast: Omit<Toast, 'id'>): void {
  const id = nextId++;
  // The same message twice in a row (two failed refetches) is shown once.
  if (toasts.some((t) => t.message === toast.message)) return;
  emit([...toasts, { ...toast, id }]);
  setTimeout(() => dismissToast(id), TOAST_MS);
}

export function subscribeToToasts(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function getToasts(): readonly Toast[] {
  return toasts;
}

export function clearToasts(): void {
  emit([]);
}
