import type { ReactNode, Ref } from 'react';
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

/**
 * A list with nothing in it. Its title can take focus from script (`ref`, tabIndex -1): where
 * focus goes when the last row was revoked (AX-03).
 */
export function EmptyState({
  title,
  children,
  ref,
}: {
  title: string;
  children?: ReactNode;
  ref?: Ref<HTMLParagraphElement>;
}) {
  return (
    <div className="state state--empty">
      <p ref={ref} className="state__title focus-target" tabIndex={-1}>
        {title}
      </p>
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
