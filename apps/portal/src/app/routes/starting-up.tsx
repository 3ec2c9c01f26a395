import { LoadingState } from '../../components/query-states.tsx';

/** Shown while the first page's module loads, before the portal frame exists. */
export function StartingUp() {
  return (
    <div className="centered">
      <LoadingState label="Loading the developer portal…" />
    </div>
  );
}
