import { existsSync } from 'node:fs';
import { join, sep } from 'node:path';
import express, { Router, type Request } from 'express';
import { RETRY_AFTER_SECONDS } from '@latchkey/runtime';
import { sendNotice } from '../http/notice-page.ts';

/** Vite names every file under assets/ by its content hash: it can be cached for good. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Only a navigation that asks for HTML gets the app; a missing script stays a 404. */
function wantsHtml(req: Request): boolean {
  return (req.method === 'GET' || req.method === 'HEAD') && (req.headers.accept ?? '').includes('text/html');
}

/**
 * The built SPA (apps/portal/dist): hashed assets cached for a year, anything else
 * revalidated, and index.html (never cached) for every other page the browser navigates to,
 * so react-router can draw /clients, /tokens or /explorer on a reload. Until the SPA is
 * built, pages answer 503 with a note saying so.
 */
export function spaRouter(distDir: string): Router {
  const router = Router();
  const assets = join(distDir, 'assets') + sep;
  const indexFile = join(distDir, 'index.html');

  router.use(
    express.static(distDir, {
      index: false,
      redirect: false,
      cacheControl: false,
      setHeaders: (res, path) => {
        res.setHeader('Cache-Control', path.startsWith(assets) ? IMMUTABLE : 'no-cache');
      },
    }),
  );

  router.use((req, res, next) => {
    if (!wantsHtml(req)) {
      next();
      return;
    }
    if (!existsSync(indexFile)) {
      res.set('Retry-After', String(RETRY_AFTER_SECONDS));
      sendNotice(res, 503, {
        title: 'The portal is not built yet',
        detail: 'The developer portal’s pages have not been built. Run `npm start`, which builds them, then reload.',
      });
      return;
    }
    res.set('Cache-Control', 'no-store');
    res.sendFile(indexFile, { cacheControl: false });
  });
  return router;
}
