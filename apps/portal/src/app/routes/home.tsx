import { redirect, useLoaderData, type LoaderFunctionArgs } from 'react-router';
import { CenteredPanel } from '../../components/centered-panel.tsx';
import { bff, paths } from '../../config/paths.ts';

/**
 * `/` opens the API clients page, except when the BFF's callback sends the user here with
 * `?error=signin_failed`: then say so, rather than start another sign-in that may fail the same way.
 */
export function homeLoader({ request }: LoaderFunctionArgs): { error: string } {
  const error = new URL(request.url).searchParams.get('error');
  if (error === null) throw redirect(paths.clients.href());
  return { error };
}

export function Home() {
  const { error } = useLoaderData<typeof homeLoader>();
  return (
    <CenteredPanel title="Sign-in did not complete">
      <p>
        {error === 'access_denied'
          ? 'The sign-in was cancelled.'
          : 'Something went wrong while signing you in. This can happen when the sign-in page stays open for a long time or is used in two tabs.'}
      </p>
      <p>
        <a className="button button--primary" href={bff.login(paths.clients.href())}>
          Try again
        </a>
      </p>
    </CenteredPanel>
  );
}
