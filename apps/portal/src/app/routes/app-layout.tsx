import { Link, NavLink, Outlet } from 'react-router';
import { bff, paths } from '../../config/paths.ts';
import { forgetExplorerData } from '../../features/graphiql/api/explorer-storage.ts';
import { UserMenu } from '../../features/session/components/user-menu.tsx';
import styles from './app-layout.module.css';

const NAVIGATION = [
  { to: paths.clients.href(), label: 'API clients' },
  { to: paths.tokens.href(), label: 'API tokens' },
  { to: paths.explorer.href(), label: 'Explorer' },
] as const;

/** The signed-in frame: brand, navigation, the user's name and Sign out, then the page. */
export function AppLayout() {
  function afterSignOut(): void {
    // Nothing of this user's Explorer (query, tabs, history) stays for the next person (SO-08).
    forgetExplorerData();
    // The portal session is gone; the authorization server's own sign-in is ended by a
    // navigation to its end-session endpoint, which sends the browser back to /signed-out.
    // A full page load, so nothing of this page's memory (the query cache) survives either.
    window.location.assign(bff.endSession);
  }

  return (
    <div className={styles.shell}>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className={styles.header}>
        <Link to={paths.clients.href()} className={styles.brand} aria-label="Latchkey developer portal, home">
          <span className={styles.logo} aria-hidden="true">
            <svg width="16" height="16" viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth="2">
              <circle cx="5.5" cy="8" r="3" />
              <path d="M8.5 8H15M12.5 8v3M15 8v2" strokeLinecap="round" />
            </svg>
          </span>
          <span>Latchkey</span>
          <span className={styles.product}>Developer portal</span>
        </Link>
        <nav className={styles.nav} aria-label="Portal">
          {NAVIGATION.map((item) => (
            <NavLink key={item.to} to={item.to} className={styles.navLink}>
              {item.label}
            </NavLink>
          ))}
        </nav>
        <div className={styles.user}>
          <UserMenu onSignedOut={afterSignOut} />
        </div>
      </header>
      <main id="main" className={styles.main} tabIndex={-1}>
        <Outlet />
      </main>
    </div>
  );
}
