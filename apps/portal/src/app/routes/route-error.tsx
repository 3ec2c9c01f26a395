import { isRouteErrorResponse, useRouteError } from 'react-router';
import { Button } from '../../components/button.tsx';
import { LoadingState } from '../../components/query-states.tsx';
import { SessionEndedError } from '../../lib/api-client.ts';
import { NotFound } from './not-found.tsx';

/**
 * A route's error boundary: the navigation stays, the page says what failed. A page module
 * that cannot load (a new release replaced it) is fixed by a reload.
 */
export function RouteErrorBoundary() {
  const error = useRouteError();
  if (error instanceof SessionEndedError) return <LoadingState label={error.message} />;
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  return (
    <div className="page">
      <div className="state state--page" role="alert">
        <h1>This page could not be shown</h1>
        <p className="state__text">Something went wrong while loading it. Reloading usually fixes this.</p>
        <p>
          <Button variant="primary" onClick={() => window.location.reload()}>
            Reload
          </Button>
        </p>
      </div>
    </div>
  );
}
