import { useSyncExternalStore } from 'react';
import { dismissToast, getToasts, subscribeToToasts } from '../lib/toasts.ts';

/** Renders the toasts raised through lib/toasts.ts, in a labelled live region. */
export function Toaster() {
  const toasts = useSyncExternalStore(subscribeToToasts, getToasts, getToasts);
  return (
    <section className="toaster" aria-label="Notifications" aria-live="polite">
      {toasts.map((toast) => (
        <div key={toast.id} className={`toast toast--${toast.tone}`} role={toast.tone === 'error' ? 'alert' : 'status'}>
          <p>{toast.message}</p>
          <button type="button" className="toast__dismiss" aria-label="Dismiss notification" onClick={() => dismissToast(toast.id)}>
            <span aria-hidden="true">×</span>
          </button>
        </div>
      ))}
    </section>
  );
}
