import type { ReactNode } from 'react';

interface AlertProps {
  tone: 'error' | 'warning' | 'info';
  title?: string;
  children: ReactNode;
}

/** An inline message. Errors are announced at once (role="alert"); the others are read in place. */
export function Alert({ tone, title, children }: AlertProps) {
  return (
    <div className={`alert alert--${tone}`} role={tone === 'error' ? 'alert' : undefined}>
      {title ? <p className="alert__title">{title}</p> : null}
      <div>{children}</div>
    </div>
  );
}
