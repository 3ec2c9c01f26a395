import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { CenteredPanel } from '../../components/centered-panel.tsx';
import { bff, paths } from '../../config/paths.ts';
import { forgetExplorerData } from '../../features/graphiql/api/explorer-storage.ts';

export function SignedOutRoute() {
  const queryClient = useQueryClient();
  // Forget the account's data. Done here, after the signed-in frame has unmounted: with its
  // queries still observed, removing them would refetch into a 401 and start a new sign-in.
  useEffect(() => queryClient.removeQueries(), [queryClient]);
  // However the browser got here, the Explorer's data of whoever was signed in goes too (SO-08).
  useEffect(() => forgetExplorerData(), []);
  return (
    <CenteredPanel title="You have signed out">
      <p>Your portal session has ended and its tokens have been revoked.</p>
      <p>
        <a className="button button--primary" href={bff.login(paths.clients.href(), true)}>
          Sign in again
        </a>
      </p>
    </CenteredPanel>
  );
}
