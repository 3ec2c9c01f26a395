import type { ReactNode } from 'react';
import { useDocumentTitle } from '../lib/use-document-title.ts';

/** A page of its own outside the signed-in layout: sign-in failed, signed out. */
export function CenteredPanel({ title, children }: { title: string; children: ReactNode }) {
  useDocumentTitle(title);
  return (
    <main className="centered">
      <div className="centered__panel">
        <p className="brand-mark" aria-hidden="true">
          Latchkey
        </p>
        <h1>{title}</h1>
        {children}
      </div>
    </main>
  );
}
