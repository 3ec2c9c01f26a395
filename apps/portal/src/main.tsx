import './app/global.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { AppProvider } from './app/provider.tsx';
import { createAppRouter } from './app/router.tsx';
import { createQueryClient } from './lib/query-client.ts';

// A page restored from the back/forward cache is a frozen copy of the signed-in portal: after
// Sign out, Back would show it, data and all. Load it again instead, which asks the BFF who is
// signed in (issue 14, SO-07).
window.addEventListener('pageshow', (event) => {
  if (event.persisted) window.location.reload();
});

const queryClient = createQueryClient();
const router = createAppRouter(queryClient);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppProvider queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProvider>
  </StrictMode>,
);
