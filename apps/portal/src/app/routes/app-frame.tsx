import type { ReactNode } from 'react';
import { Link, NavLink } from 'react-router';
import { paths } from '../../config/paths.ts';
import { loadExplorer } from '../../features/graphiql/load-explorer.ts';

/** The portal's pages in its navigation, in order. index.html paints the same links before any script runs. */
export const NAVIGATION = [
  { to: paths.clients.href(), label: 'API clients' },
  { to: paths.tokens.href(), label: 'API tokens' },
  { to: paths.explorer.href(), label: 'Explorer' },
  { to: paths.securityLog.href(), label: 'Security log' },
] as const;

/** The Explorer's editor starts downloading when its link is pointed at or focused (issue 20). */
function preloadOn(to: string) {
  if (to !== paths.explorer.href()) return {};
  const preload = () => void loadExplorer();
  return { onPointerEnter: preload, onFocus: preload };
}

/**
 * The frame every signed-in page sits in: brand, navigation, and `user` (the name and Sign out
 * once the session is known). Its markup and classes are copied into index.html, so the frame
 * is on screen before the JavaScript has loaded (issue 20); app-frame.test.tsx keeps the two
 * in step.
 */
export function AppFrame({ user, children }: { user?: ReactNode; children: ReactNode }) {
  return (
    <div className="app-shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="app-header">
        {/* AX-01: named by what it shows (axe's label-content-name-mismatch). */}
        <Link to={paths.clients.href()} className="app-brand">
          <span className="app-logo" aria-hidden="true">
            <svg width="16" height="16" viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth="2">
              <circle cx="5.5" cy="8" r="3" />
              <path d="M8.5 8H15M12.5 8v3M15 8v2" strokeLinecap="round" />
            </svg>
          </span>
          <span>Latchkey</span>
          <span className="app-product">Developer portal</span>
        </Link>
        <nav className="app-nav" aria-label="Portal">
          {NAVIGATION.map((item) => (
            <NavLink key={item.to} to={item.to} className="app-nav__link" {...preloadOn(item.to)}>
              {item.label}
            </NavLink>
          ))}
        </nav>
        <div className="app-user">{user}</div>
      </header>
      <main id="main" className="app-main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}

/** A page's shape while its module or data loads: the same as index.html's. */
export function PageSkeleton({ label }: { label: string }) {
  return (
    <div className="page">
      <div className="skeleton" role="status" aria-live="polite">
        <span className="visually-hidden">{label}</span>
        <div className="skeleton__bar skeleton__bar--title" />
        <div className="skeleton__bar skeleton__bar--text" />
        <div className="skeleton__bar skeleton__bar--row" />
        <div className="skeleton__bar skeleton__bar--row" />
        <div className="skeleton__bar skeleton__bar--row" />
      </div>
    </div>
  );
}
