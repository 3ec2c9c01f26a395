import type { Page } from '@playwright/test';

/** Pages (HTML documents) the authorization server shows from now on, rather than redirects. */
export function authPagesShown(page: Page, authUrl: string): () => string[] {
  const shown: string[] = [];
  page.on('response', (response) => {
    if (
      response.request().resourceType() === 'document' &&
      response.url().startsWith(authUrl) &&
      response.status() < 300
    ) {
      shown.push(new URL(response.url()).pathname);
    }
  });
  return () => shown;
}
