import { Link } from 'react-router';
import { paths } from '../../config/paths.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

export function NotFound() {
  useDocumentTitle('Page not found');
  return (
    <div className="page">
      <div className="state state--page">
        <h1>Page not found</h1>
        <p className="state__text">There is nothing at this address.</p>
        <p>
          <Link className="button button--primary" to={paths.clients.href()}>
            Go to API clients
          </Link>
        </p>
      </div>
    </div>
  );
}
