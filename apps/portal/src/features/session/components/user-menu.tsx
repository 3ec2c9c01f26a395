import { Button } from '../../../components/button.tsx';
import { useSession } from '../api/get-session.ts';
import { useSignOut } from '../api/sign-out.ts';
import styles from './user-menu.module.css';

function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  const letters = parts.length > 1 ? [parts[0]!, parts[parts.length - 1]!] : parts;
  return letters.map((part) => part[0]!.toUpperCase()).join('') || '?';
}

/** The signed-in user's name and the Sign out button, for the portal's header. */
export function UserMenu({ onSignedOut }: { onSignedOut: () => void | Promise<void> }) {
  const session = useSession();
  const signOut = useSignOut({ onSignedOut });
  const user = session.data;

  return (
    <div className={styles.menu}>
      {user ? (
        <p className={styles.user} title={user.email}>
          <span className={styles.avatar} aria-hidden="true">
            {initials(user.name)}
          </span>
          <span className={styles.name}>
            <span className="visually-hidden">Signed in as </span>
            {user.name}
          </span>
        </p>
      ) : session.isPending ? (
        <span className={styles.placeholder} aria-hidden="true" />
      ) : null}
      <Button variant="ghost" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
        Sign out
      </Button>
    </div>
  );
}
