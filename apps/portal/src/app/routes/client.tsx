import { Link, useParams } from 'react-router';
import { paths } from '../../config/paths.ts';
import { RegionErrorBoundary } from '../../components/region-error-boundary.tsx';
import { ClientDetails } from '../../features/clients/components/client-details.tsx';

/** /clients/:id, reached from the API clients list. */
export function ClientRoute() {
  const { id = '' } = useParams();
  return (
    <div className="page">
      <p className="back-link">
        <Link to={paths.clients.href()}>← API clients</Link>
      </p>
      <RegionErrorBoundary title="Could not show this client">
        <ClientDetails id={id} />
      </RegionErrorBoundary>
    </div>
  );
}
