import { AppFrame, PageSkeleton } from './app-frame.tsx';

/**
 * Shown while the first page's module loads: the frame and a skeleton, as index.html painted
 * them before the script ran, so nothing jumps when React takes over.
 */
export function StartingUp() {
  return (
    <AppFrame>
      <PageSkeleton label="Loading the developer portal…" />
    </AppFrame>
  );
}
