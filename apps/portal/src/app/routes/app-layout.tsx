import { Outlet } from 'react-router';
import { bff } from '../../config/paths.ts';
import { forgetExplorerData } from '../../features/graphiql/api/explorer-storage.ts';
import { DraftOwner, forgetDialogDraft } from '../../lib/dialog-draft.ts';
import { useSession } from '../../features/session/api/get-session.ts';
import { UserMenu } from '../../features/session/components/user-menu.tsx';
import { AppFrame } from './app-frame.tsx';

/** The signed-in frame: brand, navigation, the user's name and Sign out, then the page. */
export function AppLayout() {
  function afterSignOut(): void {
    // Nothing of this user's Explorer (query, tabs, history) stays for the next person (SO-08).
    forgetExplorerData();
    // AX-11: nothing typed in a dialog stays for the next person either.
    forgetDialogDraft();
    // The portal session is gone; the authorization server's own sign-in is ended by a
    // navigation to its end-session endpoint, which sends the browser back to /signed-out.
    // A full page load, so nothing of this page's memory (the query cache) survives either.
    window.location.assign(bff.endSession);
  }

  // AX-11: drafts of form dialogs are kept for, and given back to, the signed-in user only.
  const session = useSession();
  return (
    <DraftOwner value={session.data?.id}>
      <AppFrame user={<UserMenu onSignedOut={afterSignOut} />}>
        <Outlet />
      </AppFrame>
    </DraftOwner>
  );
}
