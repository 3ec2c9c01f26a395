import type { ReactNode } from 'react';
import { errorMessage, SessionEndedError } from '../lib/api-client.ts';
import { Button } from './button.tsx';

/** While a list loads: a spinner with its name, announced politely. */
export function LoadingState({ label }: { label: string }) {
  return (
    <div className="state" role="status">
      <span className="spinner" aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="state state--empty">
      <p className="state__title">{title}</p>
      {children ? <div className="state__text">{children}</div> : null}
    </div>
  );
}

/** A failed load, with the reason and a way to try again. A 401 shows the way to sign-in instead. */
export function ErrorState({ title, error, onRetry }: { title: string; error: unknown; onRetry?: () => void }) {
  if (error instanceof SessionEndedError) return <LoadingState label={error.message} />;
  return (
    <div className="state state--error" role="alert">
      <p className="state__title">{title}</p>
      <p className="state__text">{errorMessage(error)}</p>
      {onRetry ? <Button onClick={onRetry}>Try again</Button> : null}
    </div>
  );
}
