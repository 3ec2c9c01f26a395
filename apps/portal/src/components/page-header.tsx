import type { ReactNode } from 'react';

/**
 * The page's h1, focusable by script only (tabIndex -1): where focus goes when what it was on
 * is gone and nothing nearer makes sense (AX-03: the last row revoked, a client revoked on its page).
 */
export function pageHeading(): HTMLElement | null {
  return document.querySelector<HTMLElement>('h1[data-page-heading]');
}

export function PageHeader({
  title,
  description,
  actions,
}: {
  title: string;
  description: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <header className="page-header">
      <div className="page-header__text">
        <h1 data-page-heading tabIndex={-1} className="focus-target">
          {title}
        </h1>
        <p className="page-header__description">{description}</p>
      </div>
      {actions ? <div className="page-header__actions">{actions}</div> : null}
    </header>
  );
}
