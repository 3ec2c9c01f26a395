import { useEffect } from 'react';

/** Names the browser tab after the page: "API tokens · Latchkey". */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · Latchkey`;
  }, [title]);
}
